/**
 * The booking saga (decisions §4 and §9): authorize the card, place the provider's order, pay it where the
 * provider holds it first, capture, confirm. Each step is recorded (a conditional write under the
 * booking's lease) before the next one starts, and each is safe to repeat: the processor's calls carry
 * idempotency keys derived from the booking, and the provider dedupes an order on our booking id. So a
 * booking left between steps by a process that died is driven on by any instance from where it stopped:
 * nothing is charged twice, nothing is charged without an order. For the same reason the steps between
 * the insert and rest do not wait for the disk (a database that crashes loses at most steps that are
 * taken again); the write that brings the booking to rest does, before it is answered.
 *
 * Compensation: a failure before the order exists voids the authorization; a failure after it cancels
 * the order too (and refunds what was captured). A price change leaves a held order for the retry.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { DomainError, PriceChangedError, ProviderTimeoutError } from '../errors.js';
import { storedFailure } from './failures.js';
import type { FlightProvider, OrderRequest, ProviderOrder } from '../flights/flight-provider.js';
import type { Offer } from '../flights/offer-schemas.js';
import type { JobQueue } from '../jobs.js';
import type { Logger } from '../logger.js';
import { fromMinorUnits, toMinorUnits } from '../money/money.js';
import type { PaymentProcessor } from '../ports.js';
import { newEventId, type WebhookEvents } from '../webhooks/events.js';
import { bookingEventData, bookingEventOf, holdJobsOf } from './booking-events.js';
import * as store from './store.js';
import type { BookingRow } from './store.js';
import { storedParts, storedVaultToken, type HeldParts, type OrderParts } from './stored-parts.js';

/** Names a step after which a test may have the process die (decisions §9: NODE_ENV=test only). */
export type FaultInjection = (step: string) => void;

export interface SagaDeps {
  db: Knex;
  /** Where a partner's booking events are recorded, with the step that causes them. */
  events: WebhookEvents;
  /** The jobs a step leaves due (a hold's warning and lapse), enqueued with it. */
  jobs: JobQueue;
  clock: Clock;
  logger: Logger;
  secrets: SecretBox;
  processor: PaymentProcessor;
  adapter(providerId: string): FlightProvider;
  faults?: FaultInjection;
}

/**
 * How long a booking's lease lasts unless renewed. The instance driving a booking renews it every
 * LEASE_RENEW_MS for as long as it works on it, however long a provider takes: so the lease is sized to
 * notice a dead instance quickly (the recovery pass takes its bookings over once it lapses), not to the
 * slowest step.
 */
export const LEASE_MS = 12_000;
export const LEASE_RENEW_MS = 4_000;

export class BookingSaga {
  constructor(private readonly deps: SagaDeps) {}

  /** A new lease holder's name: one per drive, so that a lapsed holder's late writes are refused. */
  newOwner(): string {
    return randomUUID();
  }

  leaseUntil(): Date {
    return new Date(this.deps.clock.now().getTime() + LEASE_MS);
  }

  /**
   * Drives the booking (whose lease `owner` holds) as far as it goes: confirmed, failed, or a hold at
   * rest. The lease is let go at the end: by the step that brings it to rest, in the same write.
   */
  async drive(start: BookingRow, owner: string, held?: HeldParts): Promise<BookingRow> {
    return this.#holding(start, owner, async () => {
      let row = start;
      for (;;) {
        const next = await this.#step(row, owner, held);
        if (!next) return row.lease_owner === owner ? this.#release(row, owner) : row;
        row = next;
        this.deps.faults?.(stepName(row));
      }
    });
  }

  /** Runs `work` on the booking whose lease `owner` holds, renewing the lease until it is done. */
  async #holding<T>(row: BookingRow, owner: string, work: () => Promise<T>): Promise<T> {
    const heartbeat = setInterval(() => {
      store.renewLease(this.deps.db, row.id, owner, this.leaseUntil()).catch((error: unknown) => {
        // The next step's write says whether the lease is still ours; a missed renewal is one of three.
        this.deps.logger.warn({ err: error, booking_id: row.id }, 'could not renew a booking lease');
      });
    }, LEASE_RENEW_MS);
    heartbeat.unref();
    try {
      return await work();
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Cancels a booking this process holds the lease of: a hold's authorization is voided and its order
   * cancelled; a confirmed booking is cancelled at the provider first (its answer says what it refunds),
   * then the traveler is refunded that much (at most what was paid). Both calls are safe to repeat, so a
   * cancel that failed half-way is finished by the next one.
   */
  async cancel(row: BookingRow, owner: string, reason: string | null): Promise<BookingRow> {
    return this.#holding(row, owner, () => this.#cancel(row, owner, reason));
  }

  async #cancel(row: BookingRow, owner: string, reason: string | null): Promise<BookingRow> {
    const now = this.deps.clock.now();
    const done = { status: 'cancelled', provider_status: 'cancelled', cancelled_at: now, cancellation_reason: reason, lease_owner: null, lease_expires_at: null };
    try {
      if (row.status === 'booking_created') {
        await this.#cancelOrder(row);
        await this.#voidAuthorization(row);
        return await this.#finish(row, owner, done);
      }
      const cancellation = await this.deps.adapter(row.provider_id).cancelOrder(row.provider_order_id as string);
      const granted = cancellation.refundAmount === null ? 0n : toMinorUnits(cancellation.refundAmount, row.currency);
      const refund = granted < BigInt(row.amount_minor) ? granted : BigInt(row.amount_minor);
      if (refund > 0n) {
        await this.deps.processor.refund(row.payment_intent_id as string, { idempotencyKey: key(row, 'refund_cancel'), amountMinor: Number(refund) });
      }
      return await this.#finish(row, owner, { ...done, refund_minor: refund > 0n ? refund.toString() : null, refund_currency: refund > 0n ? row.currency : null });
    } catch (error) {
      await this.#release(row, owner);
      throw error;
    }
  }

  async #finish(row: BookingRow, owner: string, changes: Record<string, unknown>): Promise<BookingRow> {
    const note = (changes.cancellation_reason as string | null) ?? undefined;
    const next = await this.#write(row, { leaseOwner: owner, from: [row.status], changes, now: this.deps.clock.now(), note });
    if (!next) throw new LeaseLost(row.id);
    return next;
  }

  /** The next step of `row`, or undefined when it is at rest. */
  async #step(row: BookingRow, owner: string, held: HeldParts | undefined): Promise<BookingRow | undefined> {
    switch (row.status) {
      case 'pending':
        return this.#authorize(row, owner, held);
      case 'payment_authorized':
        return this.#placeOrder(row, owner, held);
      case 'booking_created':
        if (row.order_type === 'hold') return row.confirm_requested ? this.#capture(row, owner) : undefined;
        return row.provider_status === 'held' ? this.#payProvider(row, owner) : this.#capture(row, owner);
      case 'payment_captured':
        return row.provider_status === 'held' ? this.#payProvider(row, owner) : this.#confirm(row, owner);
      default:
        return undefined;
    }
  }

  async #authorize(row: BookingRow, owner: string, held: HeldParts | undefined): Promise<BookingRow> {
    try {
      const intent = await this.deps.processor.authorize({
        amountMinor: Number(row.amount_minor),
        currency: row.currency,
        vaultToken: held?.vaultToken ?? storedVaultToken(this.deps.secrets, row),
        idempotencyKey: key(row, 'authorize'),
        description: `Flight booking ${row.id}`,
      });
      return this.#advance(row, owner, { status: 'payment_authorized', payment_intent_id: intent.id });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // A timed-out authorization may still have been made: its key finds it, to void it.
      if (error instanceof ProviderTimeoutError) await this.#voidLostAuthorization(row);
      return this.#fail(row, owner, error);
    }
  }

  async #placeOrder(row: BookingRow, owner: string, held: HeldParts | undefined): Promise<BookingRow> {
    // A retry after a price change pays the order the first attempt left held.
    if (row.provider_order_id && row.provider_status === 'held') return this.#advance(row, owner, { status: 'booking_created' }, 'order held since the first attempt');
    try {
      const order = await this.deps.adapter(row.provider_id).createOrder(this.#orderRequest(row, held ?? (await storedParts(this.deps.db, this.deps.secrets, row))));
      return this.#advance(row, owner, { status: 'booking_created', ...orderColumns(row, order) }, undefined, order.tickets);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await this.#voidAuthorization(row);
      return this.#fail(row, owner, error, priceChangeColumns(error));
    }
  }

  /** Pays the provider's held order: right after it is placed (instant), or after capture (a hold confirmed). */
  async #payProvider(row: BookingRow, owner: string): Promise<BookingRow> {
    try {
      const order = await this.deps.adapter(row.provider_id).payOrder({
        orderId: row.provider_order_id as string,
        reference: row.id,
        raw: rawOf(row),
        amount: fromMinorUnits(BigInt(row.amount_minor), row.currency),
        currency: row.currency,
      });
      return this.#advance(row, owner, orderColumns(row, order), 'provider paid', order.tickets);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // A changed price keeps the held order for the retry; any other failure cancels it.
      if (!(error instanceof PriceChangedError)) await this.#cancelOrder(row);
      if (row.status === 'payment_captured') await this.#refund(row, BigInt(row.amount_minor), 'failed');
      else await this.#voidAuthorization(row);
      return this.#fail(row, owner, error, priceChangeColumns(error));
    }
  }

  async #capture(row: BookingRow, owner: string): Promise<BookingRow> {
    try {
      await this.deps.processor.capture(row.payment_intent_id as string, { idempotencyKey: key(row, 'capture') });
      return this.#advance(row, owner, { status: 'payment_captured' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await this.#cancelOrder(row);
      await this.#voidAuthorization(row);
      return this.#fail(row, owner, error);
    }
  }

  async #confirm(row: BookingRow, owner: string): Promise<BookingRow> {
    return this.#advance(row, owner, { status: 'confirmed' });
  }

  /**
   * Records a step. The step that brings the booking to rest lets go of the lease in the same write, and
   * waits for the disk; any other renews the lease and does not wait (store.advance's `inFlight`: a step
   * lost with the database is taken again, as every step is safe to repeat).
   */
  async #advance(row: BookingRow, owner: string, changes: Record<string, unknown>, note?: string, tickets?: ProviderOrder['tickets']): Promise<BookingRow> {
    const rest = atRest({ ...row, ...changes } as BookingRow);
    const lease = rest ? { lease_owner: null, lease_expires_at: null } : { lease_expires_at: this.leaseUntil() };
    const step = { leaseOwner: owner, from: [row.status], changes: { ...changes, ...lease }, now: this.deps.clock.now(), note, inFlight: !rest, ...(tickets ? { tickets } : {}) };
    const next = await this.#write(row, step);
    if (!next) throw new LeaseLost(row.id);
    return next;
  }

  /**
   * Records the failure the caller (and every repeat) is answered. Only domain failures get here: an
   * unexpected error leaves the booking at its step, for the recovery pass to drive on once the lease lapses.
   */
  async #fail(row: BookingRow, owner: string, error: DomainError, extra: Record<string, unknown> = {}): Promise<BookingRow> {
    const failure = storedFailure(error);
    // Failed is at rest: the lease goes with the write.
    const changes = { status: 'failed', failure: JSON.stringify(failure), ...extra, lease_owner: null, lease_expires_at: null };
    const next = await this.#write(row, { leaseOwner: owner, from: [row.status], changes, now: this.deps.clock.now(), note: failure.code });
    if (!next) throw new LeaseLost(row.id);
    return next;
  }

  /**
   * Writes a step. One that brings a partner's booking to an outcome records the partner's event with it
   * (in the same statement, or with its deliveries and their jobs in the same transaction), and one that
   * leaves a hold at rest enqueues its warning and lapse in the same transaction; any other is the one
   * statement it always was. The event's data is the booking as the step leaves it.
   */
  async #write(row: BookingRow, step: store.Step): Promise<BookingRow | undefined> {
    const after = { ...row, ...step.changes, updated_at: step.now } as BookingRow;
    const type = bookingEventOf(row, after);
    const jobs = holdJobsOf(row, after, step.now);
    if (!type && jobs.length === 0) return store.advance(this.deps.db, row, step);
    const event = type && { partnerId: after.partner_id as string, type, data: bookingEventData(after), at: step.now };
    if (event && jobs.length === 0) {
      // Most partners' events have no endpoint to go to: the step's own statement writes the event then,
      // and the transaction below is only for one with deliveries (and their jobs) to make.
      const written = await store.advance(this.deps.db, row, { ...step, event: { id: newEventId(), partnerId: event.partnerId, type: event.type, data: event.data } });
      if (written !== store.LISTENED) return written;
    }
    return this.deps.db.transaction(async (trx) => {
      const next = await store.advance(trx, row, step);
      if (!next) return undefined;
      if (event) await this.deps.events.record(trx, event);
      await this.deps.jobs.enqueue(trx, jobs);
      return next;
    });
  }

  async #release(row: BookingRow, owner: string): Promise<BookingRow> {
    return store.release(this.deps.db, row, owner);
  }

  /** The order request: the same on every repeat, whether its parts were held or read back. */
  #orderRequest(row: BookingRow, parts: OrderParts): OrderRequest {
    const offer = row.offer as unknown as Offer;
    return {
      reference: row.id,
      raw: rawOf(row),
      offer,
      type: row.order_type,
      passengers: parts.passengers,
      contact: {
        email: row.contact.email,
        phoneNumber: row.contact.phone_number,
        firstName: row.contact.first_name,
        lastName: row.contact.last_name,
        title: row.contact.title ?? null,
      },
      seats: parts.seats,
      services: row.services,
      amount: fromMinorUnits(BigInt(row.amount_minor), row.currency),
      currency: row.currency,
    };
  }

  /** Voids the authorization, if there is one: best effort, logged (an authorization lapses on its own in days). */
  async #voidAuthorization(row: BookingRow): Promise<void> {
    if (!row.payment_intent_id) return;
    await this.#bestEffort(row, 'void the authorization', () => this.deps.processor.cancel(row.payment_intent_id as string, { idempotencyKey: key(row, 'void') }));
  }

  /** An authorization whose answer was lost: the same key finds it (or makes it), and it is voided. */
  async #voidLostAuthorization(row: BookingRow): Promise<void> {
    await this.#bestEffort(row, 'void a timed-out authorization', async () => {
      const intent = await this.deps.processor.authorize({
        amountMinor: Number(row.amount_minor),
        currency: row.currency,
        vaultToken: storedVaultToken(this.deps.secrets, row),
        idempotencyKey: key(row, 'authorize'),
      });
      await this.deps.processor.cancel(intent.id, { idempotencyKey: key(row, 'void') });
    });
  }

  async #refund(row: BookingRow, amountMinor: bigint, purpose: string): Promise<void> {
    if (!row.payment_intent_id || amountMinor <= 0n) return;
    await this.#bestEffort(row, 'refund the capture', () =>
      this.deps.processor.refund(row.payment_intent_id as string, { idempotencyKey: key(row, `refund_${purpose}`), amountMinor: Number(amountMinor) }),
    );
  }

  async #cancelOrder(row: BookingRow): Promise<void> {
    if (!row.provider_order_id) return;
    await this.#bestEffort(row, 'cancel the provider order', () => this.deps.adapter(row.provider_id).cancelOrder(row.provider_order_id as string));
  }

  async #bestEffort(row: BookingRow, what: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.deps.logger.error({ err: error, booking_id: row.id }, `booking compensation failed: could not ${what}`);
    }
  }
}

/** Another process took the booking over (our lease lapsed): it drives it now. */
export class LeaseLost extends Error {
  constructor(bookingId: string) {
    super(`lost the lease of booking ${bookingId}`);
  }
}

/** What a provider's order says of the booking (its tickets are written with the step). */
function orderColumns(row: BookingRow, order: ProviderOrder): Record<string, unknown> {
  return {
    provider_order_id: order.orderId,
    provider_status: order.status,
    airline_pnr: order.pnr ?? row.airline_pnr,
    payment_required_by: order.paymentRequiredBy ? new Date(order.paymentRequiredBy) : null,
  };
}

/** Whether the saga has nothing more to do with the booking as it stands (#step would take no step). */
function atRest(row: BookingRow): boolean {
  if (row.status === 'booking_created' && row.order_type === 'hold') return !row.confirm_requested;
  return !store.IN_FLIGHT.includes(row.status);
}

/** The step a row has just recorded, as fault injection names it. */
function stepName(row: BookingRow): string {
  if (row.status === 'booking_created' && row.provider_status === 'confirmed' && row.order_type === 'instant') return 'provider_paid';
  return row.status;
}

/** Idempotency keys of the processor's calls: one per booking, step and attempt (a retry authorizes anew). */
function key(row: BookingRow, step: string): string {
  return `booking_${row.id}_${row.attempt}_${step}`;
}

function rawOf(row: BookingRow): Record<string, unknown> {
  return (row.offer as { raw_offer?: Record<string, unknown> }).raw_offer ?? {};
}

function priceChangeColumns(error: unknown): Record<string, unknown> {
  if (!(error instanceof PriceChangedError) || !error.orderId) return {};
  return { provider_order_id: error.orderId, provider_status: 'held' };
}
