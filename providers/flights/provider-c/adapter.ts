/**
 * provider_c's adapter: its NDC system over HTTP (providers/http-client.ts), with the timeouts of its
 * capabilities, every answer parsed with its native schema, every failure turned into a domain error in
 * our words. NDC answers business errors with HTTP 200 and `Errors`, so a good status is not yet a good
 * answer.
 * Offers are sent whole (OfferPrice, SeatAvailability, OrderCreate). Its orders are held first
 * (OrderCreate), then paid (OrderChange); a held order the airline repriced is refused at payment (727),
 * and the new total is read with OrderReshop. Cancelling is OrderReshop's cancel quote, accepted with
 * OrderChange. Passenger details go with the order: there is no updatePassenger.
 */
import type { z } from 'zod';
import { ConflictError, PriceChangedError } from '../../../core/errors.js';
import type { FlightProvider, OrderCancellation, OrderPayment, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import { toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import { HttpClient, HttpTimeoutError } from '../../http-client.js';
import type { ProviderSettings } from '../adapter-kit.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { failures, fromCodes } from './ndc-failures.js';
import { orderCreateRequest } from './order-request.js';
import { toCancellation, toProviderOrder } from './order-view.js';
import { toSeatMaps } from './seat-map.js';
import { WireCancelQuote, WireErrors, WireOffer, WireOfferPriceAnswer, WireOrderReshop, WireOrderView, WireSeatAvailability } from './wire.js';

type Step = 'pricing' | 'booking';

export class ProviderCAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  readonly #http: HttpClient;
  readonly #settings: ProviderSettings;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    // Each call sets its step's deadline (pricing or booking).
    this.#http = new HttpClient({ baseUrl: settings.baseUrl, headers: { authorization: `Bearer ${settings.token}`, accept: 'application/json' }, timeoutMs: settings.capabilities.booking_timeout_seconds * 1000 });
  }

  /** A changed price (with its 711 warning) simply comes back as the new offer: the service compares totals. */
  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const { PricedOffer } = await this.#call('OfferPrice', { PricedOffer: raw }, WireOfferPriceAnswer, 'pricing');
    return { offer: failures.map(() => toOffer(PricedOffer)), providerOfferId: PricedOffer.OfferID };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    return toSeatMaps(await this.#call('SeatAvailability', { PricedOffer: raw }, WireSeatAvailability, 'pricing'), offerId);
  }

  /**
   * OrderCreate: always a hold (NDC pays with OrderChange). Chosen seats are first looked up in
   * SeatAvailability, whose à la carte items the order selects. A hold whose total is not the amount
   * agreed (the airline priced it otherwise) is said as a price change, with the order to pay.
   */
  async createOrder(request: OrderRequest): Promise<ProviderOrder> {
    const offer = failures.parse(WireOffer, request.raw);
    const seatOffer = request.seats.length > 0 ? await this.#call('SeatAvailability', { PricedOffer: request.raw }, WireSeatAvailability, 'booking') : undefined;
    const order = toProviderOrder(await this.#call('OrderCreate', orderCreateRequest(request, offer, seatOffer), WireOrderView, 'booking'));
    if (order.status === 'held' && !sameMoney(order, request)) {
      throw new PriceChangedError({ orderId: order.orderId, previousTotalAmount: request.amount, newTotalAmount: order.amount, currency: order.currency });
    }
    return order;
  }

  /**
   * OrderChange with the amount as last agreed. Refused for the amount (727) while the airline names
   * the order: OrderReshop tells whether it repriced; if so, that is a price change carrying the order id
   * (nothing paid, pay again at the new total), otherwise the amount was simply wrong. Already ticketed
   * (395) is the paid order, read back.
   */
  async payOrder(payment: OrderPayment): Promise<ProviderOrder> {
    const request = {
      Order: { OrderID: payment.orderId },
      PaymentFunctions: { PaymentProcessingDetails: { Amount: { amount: payment.amount, curCode: payment.currency } } },
    };
    const answer = await this.#send('OrderChange', request, 'booking');
    const refused = WireErrors.safeParse(answer);
    if (!refused.success) return toProviderOrder(failures.parse(WireOrderView, answer));
    const codes = refused.data.Errors.map((error) => error.Code);
    if (codes.includes('395')) return this.retrieveOrder(payment.orderId);
    if (codes.includes('727') && refused.data.Order?.OrderID === payment.orderId) throw await this.#priceChange(payment);
    if (codes.includes('129')) {
      // 129 is both "no such order" and "order no longer open": the order, read back, tells which.
      const order = await this.retrieveOrder(payment.orderId);
      if (order.status === 'cancelled') throw new ConflictError('This order is cancelled and can no longer be paid: book again.', 'order_cancelled');
      throw failures.unavailable();
    }
    throw fromCodes(codes);
  }

  async retrieveOrder(orderId: string): Promise<ProviderOrder> {
    return toProviderOrder(await this.#call('OrderRetrieve', { Order: { OrderID: orderId } }, WireOrderView, 'booking'));
  }

  /**
   * OrderReshop's cancel quote, then OrderChange accepting it. The airline answers a second cancel with
   * the quote it accepted and the order it closed, so the same cancellation comes back.
   */
  async cancelOrder(orderId: string): Promise<OrderCancellation> {
    const quote = await this.#call('OrderReshop', { Order: { OrderID: orderId }, UpdateOrder: { CancelOrderRef: { OrderRefID: orderId } } }, WireCancelQuote, 'booking');
    const [offer] = quote.ReshopResults.ReshopOffers;
    const accept = { Order: { OrderID: orderId, OwnerCode: offer?.OwnerCode }, ChangeOrderChoice: { AcceptCancelledOffer: { OfferID: offer?.OfferID, OwnerCode: offer?.OwnerCode } } };
    return toCancellation(await this.#call('OrderChange', accept, WireOrderView, 'booking'));
  }

  /** The error a 727 becomes once OrderReshop has said whether the order repriced. */
  async #priceChange(payment: OrderPayment): Promise<Error> {
    const reshop = await this.#call('OrderReshop', { Order: { OrderID: payment.orderId } }, WireOrderReshop, 'booking');
    const total = reshop.ReshopResults.RepricedOffer?.TotalPrice.TotalAmount;
    if (!total) return fromCodes(['727']);
    return failures.map(
      () =>
        new PriceChangedError({
          orderId: payment.orderId,
          previousTotalAmount: payment.amount,
          newTotalAmount: toDecimalString(total.amount, total.curCode, 'RepricedOffer.TotalPrice'),
          currency: total.curCode,
        }),
    );
  }

  async #call<S extends z.ZodType>(path: string, json: unknown, schema: S, step: Step): Promise<z.output<S>> {
    return this.#read(await this.#send(path, json, step), schema);
  }

  /** A POST within the step's capability timeout; a failure to answer in our words. Never retried: an order must not be placed twice. */
  async #send(path: string, json: unknown, step: Step): Promise<unknown> {
    const seconds = step === 'pricing' ? this.#settings.capabilities.pricing_timeout_seconds : this.#settings.capabilities.booking_timeout_seconds;
    try {
      return await this.#http.json({ method: 'POST', path, json, timeoutMs: seconds * 1000 });
    } catch (error) {
      if (error instanceof HttpTimeoutError) throw failures.timedOut(seconds);
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

function sameMoney(order: ProviderOrder, request: OrderRequest): boolean {
  try {
    return order.currency === request.currency && toMinorUnits(order.amount, order.currency) === toMinorUnits(request.amount, request.currency);
  } catch {
    return false;
  }
}
