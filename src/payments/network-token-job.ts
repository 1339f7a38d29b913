/**
 * Provisions network tokens that an upgrade with `networkToken.async: true` queued (docs/platform.md#upgrade-and-network-tokens: answers
 * `created: false`, then sends /token-updated when provisioned). Each is a row with a due time, marked by a
 * conditional update (status = PENDING), so a restart or a second instance never provisions one twice; the timer is
 * armed for the earliest row, sooner when this instance queues an earlier one (due-sweeper.ts). Each sweep also seals
 * a batch of the network tokens still stored in the clear, and sweeps again at once while more are left.
 */
import type { BackgroundJob } from '../jobs/background.ts';
import { startDueJob } from '../jobs/due-sweeper.ts';

/** How often rows queued by other instances are looked for. */
const TOKENS_POLL_MS = 30_000;

export const startNetworkTokenProvisioning: BackgroundJob = ({ services, clock, logger }) => {
  const tokens = services.payments.tokens;
  return startDueJob({
    clock,
    logger,
    name: 'network token provisioning',
    pollMs: TOKENS_POLL_MS,
    async sweepOnce() {
      // docs/platform.md#upgrade-and-network-tokens: a batch at start and on every sweep, so a rolling upgrade's older
      // instance leaves nothing in the clear for long either (an index of those rows alone: migration 0012).
      const { sealed, more } = await tokens.sealClearTokens();
      if (sealed > 0) logger.info('sealed network tokens stored in the clear', { count: sealed });
      await tokens.provisionDue();
      // More left: the next batch at once, after whatever else waits (requests, other jobs).
      return more ? clock.now() : tokens.nextProvisionDue();
    },
    watch: (arm) => tokens.onProvisionQueued(arm),
  });
};
