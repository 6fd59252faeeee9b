/**
 * Purchase confirmation (decisions §10): a purchase through the tools is made only once the traveler has
 * confirmed, on our hosted page, exactly that purchase. A confirmation is bound to the traveler, the
 * agent's client and the quote's fingerprint (offer version, total and currency, passengers, seats, bags,
 * card), lives 15 minutes, and pays for one booking at most.
 *
 * The gate of create_booking (`gateFor`) first holds the purchase against the traveler's spending limit
 * for the agent, then asks for a confirmation, or checks the one the agent names. The traveler's side
 * (view, confirm, decline) is what the hosted page calls.
 */
import type { Knex } from 'knex';
import type { PurchaseAdmission, PurchaseGate, PurchaseQuote } from '../bookings/purchase-gate.js';
import type { Clock } from '../clock.js';
import { ConfirmationRequiredError, ForbiddenError, NotFoundError } from '../errors.js';
import { decide, findConfirmation, findPendingFor, insertConfirmation, markUsed, type ConfirmationRow } from './confirmation-store.js';
import type { ConfirmationDecisions, ConfirmationSummary, ConfirmationView } from './contracts.js';
import { confirmationDeclined, confirmationExpired, confirmationNotFound, confirmationUsed } from './errors.js';
import { checkSpendingLimit } from './limit-check.js';
import { describeDrift, summarize, type Itinerary } from './purchase-summary.js';
import type { SpendingLimits } from './spending-limits.js';

export const CONFIRMATION_TTL_MS = 15 * 60_000;
/** Where the hosted pages serve a confirmation, and the connected apps page (where limits are changed). */
export const confirmationPath = (id: string) => `/confirm/${id}`;
export const CONNECTED_APPS_PATH = '/account/apps';

/** The name the traveler knows an agent by (its registered client_name, or its host). */
export interface ClientNames {
  nameOf(clientId: string): Promise<string>;
}

export interface PurchaseConfirmationDeps {
  db: Knex;
  clock: Clock;
  limits: SpendingLimits;
  /** The hosted pages' origin (AUTH_URL). */
  authUrl: string;
  /** Only the page needs names; without them an agent is named by its client id's host, or the id. */
  clientNames?: ClientNames;
}

/** Who buys: the token's traveler, through the agent's client. */
export interface Purchaser {
  userId: string;
  clientId?: string | undefined;
}

export class PurchaseConfirmations implements ConfirmationDecisions {
  constructor(private readonly deps: PurchaseConfirmationDeps) {}

  /** The gate of one create_booking call; `itinerary` is the offer's slices, for the page. */
  gateFor(purchaser: Purchaser, confirmationId: string | undefined, itinerary: Itinerary): PurchaseGate {
    return { admit: (quote) => this.#admit(purchaser, confirmationId, itinerary, quote) };
  }

  async view(id: string, userId: string): Promise<ConfirmationView> {
    return this.#present(await this.#travelers(id, userId));
  }

  async confirm(id: string, userId: string): Promise<ConfirmationView> {
    await this.#travelers(id, userId);
    const decided = await decide(this.deps.db, id, ['pending'], 'confirmed', this.deps.clock.now());
    if (decided) return this.#present(decided);
    const row = (await findConfirmation(this.deps.db, id)) as ConfirmationRow;
    // A second press of Confirm (a double click, a reload of the form) changes nothing.
    if (row.status === 'confirmed' && !this.#expired(row)) return this.#present(row);
    throw this.#notDecidable(row);
  }

  /** Also takes back a confirmation the agent has not used yet: the traveler changed their mind. */
  async decline(id: string, userId: string): Promise<ConfirmationView> {
    await this.#travelers(id, userId);
    const decided = await decide(this.deps.db, id, ['pending', 'confirmed'], 'declined', this.deps.clock.now());
    if (decided) return this.#present(decided);
    const row = (await findConfirmation(this.deps.db, id)) as ConfirmationRow;
    if (row.status === 'declined') return this.#present(row);
    throw this.#notDecidable(row);
  }

  async #admit(purchaser: Purchaser, confirmationId: string | undefined, itinerary: Itinerary, quote: PurchaseQuote): Promise<PurchaseAdmission> {
    const clientId = purchaser.clientId;
    if (!clientId) throw new Error('a purchase gate needs the agent’s client id');
    const who = { userId: purchaser.userId, clientId };
    await this.#checkLimit(who, quote);
    const summary = summarize(quote, itinerary);
    if (!confirmationId) throw this.#required(await this.#ask(who, quote, summary));

    const row = await findConfirmation(this.deps.db, confirmationId);
    if (!row || row.user_id !== who.userId || row.client_id !== who.clientId) throw confirmationNotFound(confirmationId);
    if (row.status === 'used') throw confirmationUsed(row.id);
    if (row.status === 'declined') throw confirmationDeclined(row.id);
    if (this.#expired(row)) throw confirmationExpired(row.id, row.expires_at.toISOString());
    if (row.fingerprint !== quote.fingerprint) {
      const fresh = await this.#ask(who, quote, summary);
      const url = this.#url(fresh.id);
      throw new ConfirmationRequiredError(
        fresh.id,
        url,
        fresh.expires_at.toISOString(),
        `This purchase is not the one of confirmation ${row.id}: ${describeDrift(row.summary, summary)} changed since. Nothing was charged. Show the traveler ${url} to confirm the purchase as it is now (it expires at ${fresh.expires_at.toISOString()}), then call create_booking again with the same arguments and confirmation_id ${fresh.id}.`,
        'confirmation_outdated',
      );
    }
    if (row.status === 'pending') {
      const url = this.#url(row.id);
      throw new ConfirmationRequiredError(
        row.id,
        url,
        row.expires_at.toISOString(),
        `The traveler has not confirmed this purchase yet: ask them to open ${url} and confirm it (it expires at ${row.expires_at.toISOString()}), then call create_booking again with the same arguments and confirmation_id ${row.id}.`,
        'confirmation_pending',
      );
    }
    return { commit: (trx, bookingId) => this.#commit(trx, who, row.id, quote, bookingId) };
  }

  /** Inside the booking's transaction: the confirmation is used once, and the 30 days are summed again under the limit's lock. */
  async #commit(trx: Knex.Transaction, who: Required<Purchaser>, confirmationId: string, quote: PurchaseQuote, bookingId: string): Promise<void> {
    const used = await markUsed(trx, confirmationId, bookingId, this.deps.clock.now());
    if (!used) {
      // Another booking used it, the traveler declined it, or it expired, since it was admitted.
      const row = (await findConfirmation(trx, confirmationId)) as ConfirmationRow;
      throw row.status === 'used' ? confirmationUsed(row.id) : row.status === 'declined' ? confirmationDeclined(row.id) : confirmationExpired(row.id, row.expires_at.toISOString());
    }
    const limit = await this.deps.limits.lockedIn(trx, who.userId, who.clientId);
    if (!limit) return;
    // The sum sees the booking this transaction just stored: what was spent before it is the rest.
    const spent = await this.deps.limits.spentIn30Days(who.userId, who.clientId, limit.currency, trx);
    const spentBefore = quote.currency === limit.currency ? spent - quote.amountMinor : spent;
    checkSpendingLimit(limit, quote, spentBefore, this.#appsUrl());
  }

  async #checkLimit(who: Required<Purchaser>, quote: PurchaseQuote): Promise<void> {
    const limit = await this.deps.limits.get(who.userId, who.clientId);
    if (!limit) return;
    const spent = await this.deps.limits.spentIn30Days(who.userId, who.clientId, limit.currency);
    checkSpendingLimit(limit, quote, spent, this.#appsUrl());
  }

  /** A pending confirmation of this purchase: the one already asked and still open, or a new one. */
  async #ask(who: Required<Purchaser>, quote: PurchaseQuote, summary: ConfirmationSummary): Promise<ConfirmationRow> {
    const now = this.deps.clock.now();
    const open = await findPendingFor(this.deps.db, { ...who, fingerprint: quote.fingerprint }, now);
    if (open) return open;
    return insertConfirmation(this.deps.db, {
      user_id: who.userId,
      client_id: who.clientId,
      provider_id: quote.providerId,
      offer_id: quote.offerId,
      fingerprint: quote.fingerprint,
      amount_minor: quote.amountMinor.toString(),
      currency: quote.currency,
      summary,
      status: 'pending',
      expires_at: new Date(now.getTime() + CONFIRMATION_TTL_MS),
      created_at: now,
    });
  }

  #required(row: ConfirmationRow): ConfirmationRequiredError {
    return new ConfirmationRequiredError(row.id, this.#url(row.id), row.expires_at.toISOString());
  }

  /** The traveler's own confirmation, for the page. */
  async #travelers(id: string, userId: string): Promise<ConfirmationRow> {
    const row = await findConfirmation(this.deps.db, id);
    if (!row) throw new NotFoundError(`There is no purchase confirmation ${id}: check the link the app gave you.`, 'confirmation_not_found');
    if (row.user_id !== userId) {
      throw new ForbiddenError('This purchase confirmation belongs to another traveler: sign in with the account the app books for.', 'confirmation_not_yours');
    }
    return row;
  }

  #notDecidable(row: ConfirmationRow): Error {
    if (row.status === 'used') return confirmationUsed(row.id);
    if (row.status === 'declined') return confirmationDeclined(row.id);
    return confirmationExpired(row.id, row.expires_at.toISOString());
  }

  async #present(row: ConfirmationRow): Promise<ConfirmationView> {
    return {
      id: row.id,
      status: row.status,
      expiresAt: row.expires_at.toISOString(),
      expired: this.#expired(row),
      clientId: row.client_id,
      clientName: await (this.deps.clientNames ?? hostNames).nameOf(row.client_id),
      summary: row.summary,
    };
  }

  /** Only an undecided or unused confirmation expires: a used or declined one stays what it is. */
  #expired(row: ConfirmationRow): boolean {
    return (row.status === 'pending' || row.status === 'confirmed') && row.expires_at.getTime() <= this.deps.clock.now().getTime();
  }

  #url(id: string): string {
    return `${this.deps.authUrl}${confirmationPath(id)}`;
  }

  #appsUrl(): string {
    return `${this.deps.authUrl}${CONNECTED_APPS_PATH}`;
  }
}

/** A client id that is a URL (a client ID metadata document) is named by its host; any other by itself. */
const hostNames: ClientNames = {
  async nameOf(clientId) {
    try {
      return new URL(clientId).host || clientId;
    } catch {
      return clientId;
    }
  },
};
