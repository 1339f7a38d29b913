/** What every REST route file is built from: the services and the door's own concerns (limits, logs, config). */
import type { Config } from '../src/kernel/config.ts';
import type { Logger } from '../src/kernel/logger.ts';
import type { RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { Readiness } from '../src/operations/readiness.ts';
import type { Services } from '../src/services.ts';

export interface RestDeps {
  services: Services;
  limiter: RateLimiter;
  logger: Logger;
  config: Config;
  publicUrl: string;
  /** `/ready`'s checks and the drain flag (docs/operations.md#readiness). */
  readiness: Readiness;
}
