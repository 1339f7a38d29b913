/**
 * The portal's words for an endpoint's health (src/pages/app/portal-health.js, docs/merchant-webhooks.md#the-portal):
 * a throttled endpoint says so and when sending resumes, though a throttle also starts the failure run; a time in
 * another year carries its year. Before, "Failing" hid every throttle and a pause to 5195 read "Oct 17, 9:56 PM".
 */
import { describe, expect, it } from 'vitest';

interface Health {
  level: string;
  label: string;
  detail: string;
}
interface PortalHealth {
  endpointHealth(endpoint: Record<string, unknown>, now?: number): Health;
  when(iso: string, now?: number): string;
}
// A plain browser module (no types of its own): imported by a computed path so TypeScript does not look for them.
const HEALTH_MODULE = '../../src/pages/app/portal-health.js';
const portalHealth = async () => (await import(HEALTH_MODULE)) as PortalHealth;

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);

describe('the portal words an endpoint\'s health', () => {
  it('says Throttled, and until when, for an endpoint paused by Retry-After, though it is failing too', async () => {
    const { endpointHealth } = await portalHealth();
    const throttled = endpointHealth({ enabled: true, failingSince: new Date(NOW - 60_000).toISOString(), throttledUntil: new Date(NOW + 3_600_000).toISOString() }, NOW);
    expect(throttled).toMatchObject({ level: 'warn', label: 'Throttled' });
    expect(throttled.detail).toMatch(/paused until .* as your receiver asked \(Retry-After\)\. Every attempt has failed since /u);
    // Once the pause is over, a failure run is Failing again; a disabled endpoint is Disabled whatever else holds.
    expect(endpointHealth({ enabled: true, failingSince: new Date(NOW - 60_000).toISOString(), throttledUntil: new Date(NOW - 1).toISOString() }, NOW).label).toBe('Failing');
    expect(endpointHealth({ enabled: false, disabledReason: 'The endpoint answered 410 Gone', throttledUntil: new Date(NOW + 1).toISOString() }, NOW).label).toBe('Disabled');
    expect(endpointHealth({ enabled: true }, NOW).label).toBe('Healthy');
  });

  it('writes the year of a time in another year, and not of one in this year', async () => {
    const { when } = await portalHealth();
    expect(when(new Date(Date.UTC(2027, 5, 1, 12)).toISOString(), NOW)).toMatch(/2027/u);
    expect(when(new Date(Date.UTC(2026, 5, 1, 12)).toISOString(), NOW)).not.toMatch(/2026/u);
  });
});
