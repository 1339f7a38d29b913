/** ENDPOINT_DISABLE_AFTER (docs/merchant-webhooks.md#disabling-and-recovery): a duration, 5 days by default; a bad value stops start-up. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { startupRefusal } from '../support/process.ts';

describe('ENDPOINT_DISABLE_AFTER', () => {
  it('reads one duration like 30m, 12h or 5d; 5 days by default', () => {
    expect(loadConfig({}).config.endpointDisableAfterMs).toBe(5 * 86_400_000);
    expect(loadConfig({ ENDPOINT_DISABLE_AFTER: '12h' }).config.endpointDisableAfterMs).toBe(12 * 3_600_000);
    expect(loadConfig({ ENDPOINT_DISABLE_AFTER: ' 30m ' }).config.endpointDisableAfterMs).toBe(30 * 60_000);
    expect(loadConfig({ ENDPOINT_DISABLE_AFTER: '2d' }).config.endpointDisableAfterMs).toBe(2 * 86_400_000);
    expect(loadConfig({ ENDPOINT_DISABLE_AFTER: '90' }).config.endpointDisableAfterMs).toBe(90_000);
    for (const bad of ['0', '0d', 'soon', '5 days', '1h,2h', '-1h', '5w']) {
      expect(() => loadConfig({ ENDPOINT_DISABLE_AFTER: bad }), bad).toThrow(/^ENDPOINT_DISABLE_AFTER: /u);
    }
  });

  it('stops start-up with one line naming it on a bad value', () => {
    const result = startupRefusal({ ENDPOINT_DISABLE_AFTER: 'forever' });
    expect(result.status).toBe(2);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/ENDPOINT_DISABLE_AFTER: .*5d/u);
  });
});
