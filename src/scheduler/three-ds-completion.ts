/** Completes pending 3DS enrollment requests when due (issue 6). STUB: the decision-platform issue replaces it. */
import type { BackgroundJob } from './background.ts';

export const startThreeDsCompletion: BackgroundJob = async () => ({ dispose: async () => {} });
