/**
 * provider_e's adapter: its system over HTTP (providers/http-client.ts), with the timeouts of its
 * capabilities, every answer parsed with its native schema, every failure turned into a domain error in
 * our words. Pricing is its verify; seat maps are its seatmaps call; the order steps are its checkout
 * (orders.ts). Passenger details go with the prebook (no updatePassenger).
 */
import type { FlightProvider, OrderCancellation, OrderPayment, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import type { ProviderSettings } from '../adapter-kit.js';
import { failures, ProviderECalls } from './calls.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { ProviderEOrders } from './orders.js';
import { toSeatMap } from './seat-map.js';
import { WireSeatMapsAnswer, WireVerifyAnswer } from './wire.js';

export class ProviderEAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  readonly #calls: ProviderECalls;
  readonly #orders: ProviderEOrders;

  /** `settings.baseUrl`: paths below it start with /v3.0; `settings.token`: its API key (X-API-Key). */
  constructor(settings: ProviderSettings) {
    this.#calls = new ProviderECalls(settings);
    this.#orders = new ProviderEOrders(this.#calls, settings.clock);
  }

  /** Its verify: the binding price now, as the offer normalized. */
  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const { offer } = (await this.#calls.call('pricing', 'post', 'verify', WireVerifyAnswer, { json: { offerId: String(raw.offerId) } })).data;
    return { offer: failures.map(() => toOffer(offer)), providerOfferId: offer.offerId };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    const { seatmaps } = (await this.#calls.call('pricing', 'post', 'seatmaps', WireSeatMapsAnswer, { json: { offerId: String(raw.offerId) } })).data;
    return failures.map(() => seatmaps.map((seatMap) => toSeatMap(seatMap, offerId)));
  }

  createOrder(request: OrderRequest): Promise<ProviderOrder> {
    return this.#orders.createOrder(request);
  }

  payOrder(payment: OrderPayment): Promise<ProviderOrder> {
    return this.#orders.payOrder(payment);
  }

  retrieveOrder(orderId: string): Promise<ProviderOrder> {
    return this.#orders.retrieveOrder(orderId);
  }

  cancelOrder(orderId: string): Promise<OrderCancellation> {
    return this.#orders.cancelOrder(orderId);
  }
}
