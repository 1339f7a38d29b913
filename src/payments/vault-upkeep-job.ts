/**
 * The card vault's two due-time jobs.
 *
 * Network tokens: provisions those an upgrade with `networkToken.async: true` queued
 * (docs/platform.md#upgrade-and-network-tokens: answers `created: false`, then sends /token-updated when
 * provisioned). Each is a row with a due time, marked by a conditional update (status = PENDING), so a restart or a
 * second instance never provisions one twice; the timer is armed for the earliest row, sooner when this instance
 * queues an earlier one (due-sweeper.ts). Each sweep also seals a batch of the network tokens still stored in the
 * clear, and sweeps again at once while more are left.
 *
 * CVCs: erases those of tokens whose payment never came (cvc-retention-service.ts).
 */
import type { BackgroundJob } from '../jobs/background.ts';
import { startDueJob } from '../jobs/due-sweeper.ts';

/** How often rows queued by other instances are looked for. */
const TOKENS_POLL_MS = 30_000;

const startNetworkTokenProvisioning: BackgroundJob = ({ services, clock, logger }) => {
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

/** How often CVCs kept by other instances' tokens are looked for (a kept CVC's time is known from its row anyway). */
const CVC_POLL_MS = 60_000;

/**
 * Erases the CVCs of tokens whose payment never came (cvc-retention-service.ts), when each one's time ends: armed
 * for the oldest kept one, and every CVC_POLL_MS for those other instances made. An erasure is a conditional update,
 * so two instances erasing at once do no harm.
 */
const startCvcErasure: BackgroundJob = ({ services, clock, logger }) => {
  const tokens = services.payments.tokens;
  return startDueJob({
    clock,
    logger,
    name: 'CVC erasure',
    pollMs: CVC_POLL_MS,
    async sweepOnce() {
      const { erased, more } = await tokens.eraseExpiredCvcs();
      if (erased > 0) logger.info('erased the CVCs of tokens never used', { count: erased });
      return more ? clock.now() : tokens.nextCvcExpiry();
    },
  });
};

/** Both vault jobs, started together and stopped together. */
export const startVaultUpkeep: BackgroundJob = async (deps) => {
  const jobs = [await startNetworkTokenProvisioning(deps), await startCvcErasure(deps)];
  return { dispose: async () => void (await Promise.all(jobs.map((job) => job.dispose()))) };
};
