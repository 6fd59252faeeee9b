/** Small pieces every provider's normalization shares. */
import type { FareClassMetadata } from './offer-schemas.js';

type Penalty = { allowed: boolean; penalty_amount: string | null; penalty_currency: string | null } | null | undefined;

/** The refund and change part of the fare summary, from the offer's conditions (unknown: not allowed). */
export function penaltySummary(
  refund: Penalty,
  change: Penalty,
): Pick<
  FareClassMetadata,
  'changes_allowed' | 'change_penalty_amount' | 'change_penalty_currency' | 'refunds_allowed' | 'refund_penalty_amount' | 'refund_penalty_currency'
> {
  return {
    changes_allowed: change?.allowed ?? false,
    change_penalty_amount: change?.penalty_amount ?? null,
    change_penalty_currency: change?.penalty_currency ?? null,
    refunds_allowed: refund?.allowed ?? false,
    refund_penalty_amount: refund?.penalty_amount ?? null,
    refund_penalty_currency: refund?.penalty_currency ?? null,
  };
}

/** A local time as providers write it (seconds optional) in the normalized form, with seconds. */
export function withSeconds(local: string): string {
  return local.length === 16 ? `${local}:00` : local;
}
