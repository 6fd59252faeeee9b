/**
 * Where provider_e's sandbox keeps its checkouts: prebooks and bookings, both rows of the flight
 * sandboxes' order table (SandboxOrders), told apart by their document's `kind`. A prebook carries the
 * client reference (a second prebook with it is the first); its booking is a row of its own, made in the
 * same transaction that marks the prebook booked, so a prebook is booked once whoever races for it.
 */
import type { Knex } from 'knex';
import { SandboxOrders, type FlightSandboxDeps, type SandboxOrder } from '../sandbox-orders.js';
import { PROVIDER_ID } from './map.js';
import type { Display, NativeOffer, NativeService } from './sandbox-catalogue.js';

/** A service attached to a prebook, as it was priced when attached. */
export type SelectedService = NativeService & { quantity: number };

export interface PrebookDocument {
  kind: 'prebook';
  prebookId: string;
  offerId: string;
  clientReference: string | null;
  /** PREBOOKED until booked or cancelled; it lapses (reads EXPIRED) at `expiration`. */
  status: 'PREBOOKED' | 'BOOKED' | 'CANCELLED';
  transactionId: string;
  secretKey: string | null;
  expiration: string;
  /** The fare as prebooked, before services. */
  fare: Display;
  /** What booking it costs: the fare plus the attached services. */
  pricing: { display: Display };
  changes: { pricing: { old: Display; new: Display } } | null;
  selectedServices: SelectedService[];
  contact: Record<string, unknown>;
  passengers: Record<string, unknown>[];
  offer: NativeOffer;
  bookingId: string | null;
  cancelledAt: string | null;
}

export interface BookingDocument {
  kind: 'booking';
  bookingId: string;
  bookingRef: string;
  status: 'CONFIRMED' | 'CANCELLED';
  offerId: string;
  prebookId: string;
  clientReference: string | null;
  createdAt: string;
  cancelledAt: string | null;
  pricing: { display: Display };
  payment: { method: string; amount: number; currency: string };
  passengers: Record<string, unknown>[];
  contact: Record<string, unknown>;
  journeys: unknown;
  services: SelectedService[];
  fareRules: NativeOffer['fareRules'];
  refund: { amount: number; currency: string } | null;
}

type Document = PrebookDocument | BookingDocument;

export class CheckoutStore {
  readonly #deps: FlightSandboxDeps;

  constructor(deps: FlightSandboxDeps) {
    this.#deps = deps;
  }

  async prebook(id: string): Promise<SandboxOrder<PrebookDocument> | undefined> {
    const order = await this.#orders().get(id);
    return order?.document.kind === 'prebook' ? (order as SandboxOrder<PrebookDocument>) : undefined;
  }

  async booking(id: string): Promise<SandboxOrder<BookingDocument> | undefined> {
    const order = await this.#orders().get(id);
    return order?.document.kind === 'booking' ? (order as SandboxOrder<BookingDocument>) : undefined;
  }

  /** Stores a prebook, or answers the one already placed with its client reference. */
  async createPrebook(document: PrebookDocument): Promise<PrebookDocument> {
    const { order } = await this.#orders().create({ id: document.prebookId, reference: document.clientReference, status: document.status, document });
    return order.document as PrebookDocument;
  }

  /** Replaces a prebook still in one of `from`; undefined when it no longer is. */
  async updatePrebook(document: PrebookDocument, from: PrebookDocument['status'][]): Promise<PrebookDocument | undefined> {
    return (await this.#orders().transition(document.prebookId, from, { status: document.status, document }))?.document as PrebookDocument | undefined;
  }

  async updateBooking(document: BookingDocument, from: BookingDocument['status'][]): Promise<BookingDocument | undefined> {
    return (await this.#orders().transition(document.bookingId, from, { status: document.status, document }))?.document as BookingDocument | undefined;
  }

  /** Marks the prebook booked and stores its booking, both or neither; false when it was no longer PREBOOKED. */
  async book(prebook: PrebookDocument, booking: BookingDocument): Promise<boolean> {
    return this.#deps.db.transaction(async (trx) => {
      const marked = await this.#orders(trx).transition(prebook.prebookId, ['PREBOOKED'], {
        status: 'BOOKED',
        document: { ...prebook, status: 'BOOKED', bookingId: booking.bookingId },
      });
      if (!marked) return false;
      await this.#orders(trx).create({ id: booking.bookingId, reference: null, status: booking.status, document: booking });
      return true;
    });
  }

  #orders(db: Knex = this.#deps.db): SandboxOrders<Document> {
    return new SandboxOrders<Document>(db, PROVIDER_ID, this.#deps.clock);
  }
}
