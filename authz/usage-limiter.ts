/**
 * Usage plans enforced with rate-limiter-flexible: a per-second rate with a burst allowance, and a daily
 * quota, one budget per partner. With Redis the budget is shared by every instance; without it each
 * process keeps its own. If Redis stops answering, an in-memory limiter stands in rather than failing
 * every request.
 */
import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { PartnerIdentity, RatePolicy, UsageDecision, UsagePlan } from '../core/partners/schemas.js';
import { counter } from './counter.js';

const DAY_SECONDS = 86_400;

interface PlanLimiters {
  perSecond: BurstyRateLimiter | RateLimiterAbstract;
  perDay: RateLimiterAbstract;
  policies: [RatePolicy, RatePolicy];
  policyHeader: string;
}

export class UsageLimiter {
  readonly #redis: Redis | undefined;
  readonly #prefix: string;
  readonly #byPlan = new Map<string, PlanLimiters>();
  readonly #byPlanObject = new WeakMap<UsagePlan, PlanLimiters>();

  constructor(options: { redis?: Redis; keyPrefix?: string } = {}) {
    this.#redis = options.redis;
    this.#prefix = options.keyPrefix ?? 'usage';
  }

  async consume(partner: PartnerIdentity): Promise<UsageDecision> {
    const limiters = this.#limitersFor(partner.plan);
    const [perSecondPolicy, perDayPolicy] = limiters.policies;

    const second = await settle(limiters.perSecond.consume(partner.partnerId));
    if (!second.allowed) return decision(false, limiters, perSecondPolicy, second.res);

    const day = await settle(limiters.perDay.consume(partner.partnerId));
    if (!day.allowed) return decision(false, limiters, perDayPolicy, day.res);

    // RateLimit reports the policy closest to exhaustion (draft-ietf-httpapi-ratelimit-headers): the day
    // once fewer of its requests remain than of the second's, or a client would see room it does not have.
    const dayIsTighter = day.res.remainingPoints < second.res.remainingPoints;
    return dayIsTighter ? decision(true, limiters, perDayPolicy, day.res) : decision(true, limiters, perSecondPolicy, second.res);
  }

  #limitersFor(plan: UsagePlan): PlanLimiters {
    // A verified key hands the same plan object to every request while it is cached: no signature to build.
    const known = this.#byPlanObject.get(plan);
    if (known) return known;
    const signature = `${plan.id}:${plan.requests_per_second}:${plan.burst}:${plan.requests_per_day}`;
    let limiters = this.#byPlan.get(signature);
    if (!limiters) {
      limiters = this.#build(plan);
      this.#byPlan.set(signature, limiters);
    }
    this.#byPlanObject.set(plan, limiters);
    return limiters;
  }

  #build(plan: UsagePlan): PlanLimiters {
    // Redis counters are keyed by partner and policy, not by plan, so a partner moved to another plan
    // keeps what it has spent today. (In memory each limiter has its own store: there a plan change
    // starts the counts afresh.)
    const rate = this.#limiter('rate', plan.requests_per_second, 1);
    const extra = plan.burst - plan.requests_per_second;
    // The burst allowance refills over the time the sustained rate would take to serve it.
    const burstWindow = Math.max(1, Math.ceil(plan.burst / plan.requests_per_second));
    const perSecond = extra > 0 ? new BurstyRateLimiter(rate, this.#limiter('burst', extra, burstWindow)) : rate;
    const policies: [RatePolicy, RatePolicy] = [
      { name: 'per_second', limit: plan.requests_per_second, windowSeconds: 1 },
      { name: 'per_day', limit: plan.requests_per_day, windowSeconds: DAY_SECONDS },
    ];
    return {
      perSecond,
      perDay: this.#limiter('day', plan.requests_per_day, DAY_SECONDS),
      policies,
      // draft-ietf-httpapi-ratelimit-headers structured-field syntax.
      policyHeader: policies.map((policy) => `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`).join(', '),
    };
  }

  #limiter(name: string, points: number, duration: number): RateLimiterAbstract {
    return counter({ redis: this.#redis, keyPrefix: `${this.#prefix}:${name}`, points, duration });
  }
}

/** rate-limiter-flexible rejects with a RateLimiterRes when the budget is spent, and with an Error on failure. */
function settle(attempt: Promise<RateLimiterRes>): Promise<{ allowed: boolean; res: RateLimiterRes }> {
  return attempt.then(
    (res) => ({ allowed: true, res }),
    (rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) return { allowed: false, res: rejection };
      throw rejection;
    },
  );
}

function decision(allowed: boolean, limiters: PlanLimiters, policy: RatePolicy, res: RateLimiterRes): UsageDecision {
  return {
    allowed,
    policyHeader: limiters.policyHeader,
    policy,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
