import { z } from 'zod';

export const PlanId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lowercase letters, digits, "-" and "_", at most 63 characters')
  .describe('Usage plan name, e.g. `default`.');

export const UsagePlan = z
  .object({
    id: PlanId,
    requests_per_second: z.number().int().positive().max(1_000_000).describe('Sustained requests per second.'),
    burst: z.number().int().positive().max(1_000_000).describe('Requests allowed at once before the per-second rate applies.'),
    requests_per_day: z.number().int().positive().max(1_000_000_000).describe('Requests per day: a 24-hour window from the first request.'),
  })
  .refine((plan) => plan.burst >= plan.requests_per_second, {
    path: ['burst'],
    message: 'burst must be at least requests_per_second',
  });
export type UsagePlan = z.infer<typeof UsagePlan>;

/** Operation ids (as in the OpenAPI document) a partner may call; null means every partner route. */
export const AllowedOperations = z.array(z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'an operationId such as getProviderCapabilities')).nullable();

export const CreatePartnerInput = z.object({
  name: z.string().trim().min(1, 'required').max(200),
  plan_id: PlanId.default('default'),
  allowed_operations: AllowedOperations.default(null),
});
export type CreatePartnerInput = z.input<typeof CreatePartnerInput>;

export const UpdatePartnerInput = z.object({
  partner_id: z.uuid(),
  plan_id: PlanId.optional(),
  allowed_operations: AllowedOperations.optional(),
});
export type UpdatePartnerInput = z.input<typeof UpdatePartnerInput>;

export interface ApiKeySummary {
  key_id: string;
  prefix: string;
  /** `secret` (the backend's) or `publishable` (for browsers, decisions §12). */
  kind: 'secret' | 'publishable';
  /** A publishable key's origins; null for a secret key. */
  allowed_origins: string[] | null;
  created_at: string;
  revoked_at: string | null;
}

/**
 * The operations a publishable key reaches (decisions §12): the checkout's routes, called from a partner's
 * page. Every other route, `getCheckoutSession` included (the backend confirms a sale there), takes a
 * secret key only.
 */
export const PUBLISHABLE_KEY_OPERATIONS: ReadonlySet<string> = new Set(['createProviderOffer', 'getProviderOffer', 'createCheckoutSession']);

export interface Partner {
  partner_id: string;
  name: string;
  plan: UsagePlan;
  allowed_operations: string[] | null;
  created_at: string;
  api_keys: ApiKeySummary[];
}

/** Who is calling, once an API key has been verified. */
export interface PartnerIdentity {
  partnerId: string;
  keyId: string;
  plan: UsagePlan;
  allowedOperations: ReadonlySet<string> | null;
  /**
   * `secret`: the partner's backend key, every route of its allowlist. `publishable` (decisions §12): a key
   * for browsers, reaching only the checkout's routes and only from `allowedOrigins`.
   */
  keyKind: 'secret' | 'publishable';
  /** The exact origins a publishable key may be used from; null for a secret key. */
  allowedOrigins: readonly string[] | null;
}

export interface RatePolicy {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** The outcome of spending one request from a partner's budget. */
export interface UsageDecision {
  allowed: boolean;
  /** The policies as a `RateLimit-Policy` header value (constant per plan). */
  policyHeader: string;
  /** The policy the numbers below describe: the one that refused, or else the one closest to running out. */
  policy: RatePolicy;
  remaining: number;
  resetSeconds: number;
}
