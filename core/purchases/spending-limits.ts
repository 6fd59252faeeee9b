/**
 * Spending limits (decisions §10): the caps a traveler sets for one connected agent, per booking and
 * per rolling 30 days, in one currency. Set on the consent page when bookings.write is granted and on
 * the connected apps page; enforced by the purchase gate before any card is touched. What an agent
 * spent is what its bookings for the traveler are worth, less those that failed or were cancelled.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { ValidationError } from '../errors.js';
import { minorUnits } from '../money/money.js';
import type { SpendingLimit, SpendingLimitSettings } from './contracts.js';

const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;
/** Bookings that took no money, or gave it back. */
const NOT_SPENT = ['failed', 'cancelled'];

interface LimitRow {
  currency: string;
  per_booking_minor: string | null;
  per_30_days_minor: string | null;
}

export class SpendingLimits implements SpendingLimitSettings {
  constructor(private readonly deps: { db: Knex; clock: Clock }) {}

  async get(userId: string, clientId: string, db: Knex = this.deps.db): Promise<SpendingLimit | undefined> {
    const row: LimitRow | undefined = await db('agent_spending_limits').where({ user_id: userId, client_id: clientId }).first();
    return row && toLimit(row);
  }

  /** The caps, locked until the transaction ends: two purchases of one agent are summed one after the other. */
  async lockedIn(trx: Knex.Transaction, userId: string, clientId: string): Promise<SpendingLimit | undefined> {
    const row: LimitRow | undefined = await trx('agent_spending_limits').where({ user_id: userId, client_id: clientId }).forUpdate().first();
    return row && toLimit(row);
  }

  async set(userId: string, clientId: string, limit: SpendingLimit | null): Promise<void> {
    if (!limit || (limit.perBookingMinor === null && limit.per30DaysMinor === null)) {
      await this.deps.db('agent_spending_limits').where({ user_id: userId, client_id: clientId }).delete();
      return;
    }
    checkLimit(limit);
    const row = {
      user_id: userId,
      client_id: clientId,
      currency: limit.currency,
      per_booking_minor: limit.perBookingMinor?.toString() ?? null,
      per_30_days_minor: limit.per30DaysMinor?.toString() ?? null,
      updated_at: this.deps.clock.now(),
    };
    await this.deps.db('agent_spending_limits').insert(row).onConflict(['user_id', 'client_id']).merge();
  }

  /** `db`: a transaction, so that disconnecting an app and forgetting its limits happen together. */
  async remove(userId: string, clientId: string, db: Knex = this.deps.db): Promise<void> {
    await db('agent_spending_limits').where({ user_id: userId, client_id: clientId }).delete();
  }

  async spentIn30Days(userId: string, clientId: string, currency: string, db: Knex = this.deps.db): Promise<bigint> {
    const since = new Date(this.deps.clock.now().getTime() - THIRTY_DAYS_MS);
    const row: { spent?: string | null } | undefined = await db('bookings')
      .where({ user_id: userId, client_id: clientId, currency })
      .where('created_at', '>', since)
      .whereNotIn('status', NOT_SPENT)
      .sum({ spent: 'amount_minor' })
      .first();
    return BigInt(row?.spent ?? 0);
  }
}

function toLimit(row: LimitRow): SpendingLimit {
  return {
    currency: row.currency,
    perBookingMinor: row.per_booking_minor === null ? null : BigInt(row.per_booking_minor),
    per30DaysMinor: row.per_30_days_minor === null ? null : BigInt(row.per_30_days_minor),
  };
}

/** Caps of at most a billion units of the currency: larger is a typo, not a limit. */
const MAX_UNITS = 10n ** 9n;

function checkLimit(limit: SpendingLimit): void {
  const problems = [];
  if (!/^[A-Z]{3}$/.test(limit.currency) || minorUnits(limit.currency) === undefined) {
    problems.push({ field: 'currency', rule: 'currency_code', message: 'an ISO 4217 currency code in capitals, such as GBP' });
  }
  const maxMinor = MAX_UNITS * 10n ** BigInt(minorUnits(limit.currency) ?? 2);
  for (const [field, value] of [
    ['per_booking', limit.perBookingMinor],
    ['per_30_days', limit.per30DaysMinor],
  ] as const) {
    if (value !== null && (value < 0n || value > maxMinor)) {
      problems.push({ field, rule: 'range', message: 'an amount from 0 up to 1,000,000,000' });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems, 'The spending limit is not valid: see `fields`.');
}
