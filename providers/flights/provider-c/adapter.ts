/**
 * provider_c's adapter: its NDC system over HTTP (got), with the timeouts of its capabilities, every
 * answer parsed with its native schema, every failure turned into a domain error in our words. NDC
 * answers business errors with HTTP 200 and `Errors`, so a good status is not yet a good answer.
 * Offers are sent whole (OfferPrice, SeatAvailability, OrderCreate). Its orders are held first, then
 * paid (OrderChange); a held order the airline repriced is refused at payment (727), and the new total
 * is read with OrderReshop. Passenger details go with the order: there is no updatePassenger.
 */
import { TimeoutError, type Got } from 'got';
import type { z } from 'zod';
import { ConflictError, DomainError, ProviderRejectedError } from '../../../core/errors.js';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import { providerFailures, providerHttp, type ProviderSettings } from '../adapter-kit.js';
import { toDecimalString } from '../../../core/money/money.js';
import { toUtcIso } from '../../../core/time.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { toSeatMaps } from './seat-map.js';
import { WireErrors, WireOfferPriceAnswer, WireOrderReshop, WireOrderView, WireSeatAvailability } from './wire.js';

const AMOUNT_REFUSED = '727';

const failures = providerFailures(PROVIDER_ID);

/** A passenger of the offer (its PaxID) with the details the airline takes with the order. */
export interface OrderPassenger {
  id: string;
  given_name: string;
  family_name: string;
  /** YYYY-MM-DD; the airline checks it against the passenger type. */
  born_on?: string;
}

export interface ProviderCOrder {
  order_id: string;
  booking_reference: string | null;
  total_amount: string;
  total_currency: string;
  payment_required_by: string | null;
  /** Empty until paid. */
  ticket_numbers: string[];
}

export interface Payment {
  amount: string;
  currency: string;
}

export class ProviderCAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  readonly #http: Got;
  readonly #settings: ProviderSettings;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.#http = providerHttp(settings.baseUrl, { authorization: `Bearer ${settings.token}` });
  }

  /** A changed price (with its 711 warning) simply comes back as the new offer: the service compares totals. */
  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const { PricedOffer } = await this.#call('OfferPrice', { PricedOffer: raw }, WireOfferPriceAnswer, 'pricing');
    return { offer: failures.map(() => toOffer(PricedOffer)), providerOfferId: PricedOffer.OfferID };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    return toSeatMaps(await this.#call('SeatAvailability', { PricedOffer: raw }, WireSeatAvailability, 'pricing'), offerId);
  }

  /** Holds the offer for `passengers` (every passenger of the offer): an order not paid yet. */
  async holdOrder(raw: Record<string, unknown>, passengers: OrderPassenger[]): Promise<ProviderCOrder> {
    const types = new Map(((raw.DataLists as { PaxList?: { PaxID: string; PTC: string }[] } | undefined)?.PaxList ?? []).map((pax) => [pax.PaxID, pax.PTC]));
    const PaxList = passengers.map((passenger) => ({
      PaxID: passenger.id,
      PTC: types.get(passenger.id),
      Individual: { GivenName: passenger.given_name, Surname: passenger.family_name, ...(passenger.born_on ? { Birthdate: passenger.born_on } : {}) },
    }));
    return orderOf(await this.#call('OrderCreate', { PricedOffer: raw, DataLists: { PaxList } }, WireOrderView, 'booking'));
  }

  /**
   * Pays a held order `amount`, its total as last known. If the airline repriced it (727), the new total
   * is read (OrderReshop) and the payment tried once more: with the same amount when nothing changed,
   * with the new total only if `acceptPriceChange`; otherwise the new total is said (price_changed) and
   * nothing is paid, so that the traveler can agree to it first.
   */
  async payHeldOrder(orderId: string, amount: Payment, options: { acceptPriceChange?: boolean } = {}): Promise<ProviderCOrder & { price_changed: boolean }> {
    const first = await this.#pay(orderId, amount);
    if (first) return { ...first, price_changed: false };
    const reshop = await this.#call('OrderReshop', { Order: { OrderID: orderId } }, WireOrderReshop, 'booking');
    const repriced = reshop.ReshopResults.RepricedOffer?.TotalPrice.TotalAmount;
    const now = repriced ? { amount: toDecimalString(repriced.amount, repriced.curCode), currency: repriced.curCode } : amount;
    const changed = now.currency !== amount.currency || now.amount !== toDecimalString(amount.amount, amount.currency);
    if (changed && !options.acceptPriceChange) {
      throw new DomainError(
        'price_changed',
        'price_changed',
        `The airline repriced the held order from ${amount.amount} ${amount.currency} to ${now.amount} ${now.currency}: show the traveler the new total, then pay that.`,
      );
    }
    const second = await this.#pay(orderId, now);
    if (!second) {
      throw new ProviderRejectedError(
        'The airline did not accept the amount paid: retrieve the order and pay exactly its total.',
        'payment_amount_mismatch',
        'provider_c: amount or currency refused',
      );
    }
    return { ...second, price_changed: changed };
  }

  /** The order paid, or undefined when the airline refused the amount (727). */
  async #pay(orderId: string, amount: Payment): Promise<ProviderCOrder | undefined> {
    const request = { Order: { OrderID: orderId }, PaymentFunctions: { PaymentProcessingDetails: { Amount: { amount: amount.amount, curCode: amount.currency } } } };
    const answer = await this.#send('OrderChange', request, 'booking');
    const refused = WireErrors.safeParse(answer).data;
    if (refused?.Errors.some((error) => error.Code === AMOUNT_REFUSED) && refused.Order?.OrderID === orderId) return undefined;
    return orderOf(this.#read(answer, WireOrderView));
  }

  async #call<S extends z.ZodType>(path: string, json: unknown, schema: S, step: 'pricing' | 'booking'): Promise<z.output<S>> {
    return this.#read(await this.#send(path, json, step), schema);
  }

  /** A POST within the step's capability timeout; a failure to answer in our words. */
  async #send(path: string, json: unknown, step: 'pricing' | 'booking'): Promise<unknown> {
    const seconds = step === 'pricing' ? this.#settings.capabilities.pricing_timeout_seconds : this.#settings.capabilities.booking_timeout_seconds;
    try {
      return await this.#http.post(path, { json, timeout: { request: seconds * 1000 } }).json();
    } catch (error) {
      if (error instanceof TimeoutError) throw failures.timedOut(seconds);
      // 401 (our token), 5xx (its system), 400 (a request it cannot read): nothing the caller can fix.
      throw failures.unavailable();
    }
  }

  /** NDC's `Errors` as domain errors; else the answer checked with `schema`. */
  #read<S extends z.ZodType>(answer: unknown, schema: S): z.output<S> {
    const refused = WireErrors.safeParse(answer);
    if (refused.success) throw fromCodes(refused.data.Errors.map((error) => error.Code));
    return failures.parse(schema, answer);
  }
}

function fromCodes(codes: string[]): Error {
  if (codes.includes('913')) return failures.expired();
  if (codes.includes('496')) return failures.soldOut();
  if (codes.includes('152')) {
    return failures.invalidPassenger(
      "The airline refused a passenger's date of birth: it must match the passenger's type in the offer (adult 12 or over, child 2 to 11, infant under 2) on the day of travel.",
      'passenger age does not match the passenger type',
    );
  }
  if (codes.includes('73') || codes.includes('151')) {
    return failures.invalidPassenger(
      "The airline refused a passenger's name: give every passenger a first and last name in letters, spaces, hyphens and apostrophes, as printed in the passport.",
      'passenger name missing or invalid',
    );
  }
  if (codes.includes('395')) return new ConflictError('This order is already paid and ticketed: retrieve it instead of paying again.', 'order_already_ticketed');
  if (codes.includes(AMOUNT_REFUSED)) {
    return new ProviderRejectedError('The airline did not accept the amount paid: retrieve the order and pay exactly its total.', 'payment_amount_mismatch', 'provider_c: amount or currency refused');
  }
  // 911 (its internal error) and anything else it may say.
  return failures.unavailable();
}

function orderOf(view: z.output<typeof WireOrderView>): ProviderCOrder {
  const total = view.Order.TotalPrice.TotalAmount;
  const bookingIds = view.Order.OrderItem.flatMap((item) => item.Service.map((service) => service.BookingRef?.BookingID)).filter((id) => id !== undefined);
  return {
    order_id: view.Order.OrderID,
    booking_reference: bookingIds[0] ?? null,
    total_amount: toDecimalString(total.amount, total.curCode),
    total_currency: total.curCode,
    payment_required_by: view.Order.PaymentTimeLimitDateTime ? toUtcIso(view.Order.PaymentTimeLimitDateTime) : null,
    ticket_numbers: (view.TicketDocInfo ?? []).flatMap((info) => info.TicketDocument.map((document) => document.TicketDocNbr)),
  };
}
