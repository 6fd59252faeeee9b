import type { UsagePlan } from '../core/partners/schemas.js';

/** decisions §6: the plan every partner gets unless told otherwise. */
export const DEFAULT_PLAN: UsagePlan = { id: 'default', requests_per_second: 25, burst: 50, requests_per_day: 100_000 };
