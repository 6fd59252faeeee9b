/**
 * provider_e's order steps, in its checkout flow: createOrder verifies the offer and prebooks it (with
 * our reference as its clientReference, so a repeated create answers the first prebook), attaches the
 * chosen seats and bags, and answers the prebook as a held order; payOrder books the prebook from the
 * partner's credit line (its booking replaces the prebook: a new order id); retrieveOrder and cancelOrder
 * take either id. Every call has the booking timeout of its capabilities.
 */
import { GoneError, NotFoundError, PriceChangedError, ProviderRejectedError } from '../../../core/errors.js';
import type { OrderCancellation, OrderPayment, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import { failures, NativeError, type ProviderECalls } from './calls.js';
import { PROVIDER_ID } from './map.js';
import { bookingOrder, cancellation, nativeContact, nativePassengers, prebookOrder, totalOf } from './order-map.js';
import { ERROR_CODES, WireBookingAnswer, WirePrebookAnswer, WireSeatMapsAnswer, WireVerifyAnswer, type WireBooking, type WirePrebook } from './wire.js';

type Found = { prebook: WirePrebook } | { booking: WireBooking };

export class ProviderEOrders {
  constructor(
    private readonly calls: ProviderECalls,
    private readonly clock: { now(): Date },
  ) {}

  async createOrder(request: OrderRequest): Promise<ProviderOrder> {
    const offerId = String(request.raw.offerId);
    await this.#verify(request, offerId);
    const passengers = nativePassengers(request);
    let prebook = (
      await this.calls.call('booking', 'post', 'prebooks', WirePrebookAnswer, {
        json: { offerId, clientReference: request.reference, usePaymentSdk: false, contact: nativeContact(request.contact), passengers },
      })
    ).data;
    // The same reference answers the first prebook: it may be booked, or have lapsed, by now.
    if (prebook.status !== 'PREBOOKED') return this.#orderOf({ prebook });
    const services = await this.#services(request, offerId);
    if (services.length > 0) {
      try {
        prebook = (await this.calls.call('booking', 'post', `prebooks/${encodeURIComponent(prebook.prebookId)}/services`, WirePrebookAnswer, { json: { services }, handled: [ERROR_CODES.prebookBooked] })).data;
      } catch (error) {
        // A repeated create found the prebook just booked by the first one's payment.
        if (error instanceof NativeError) return this.retrieveOrder(prebook.prebookId);
        throw error;
      }
    }
    const total = totalOf(prebook.pricing);
    if (total !== request.amount) {
      // The prebook exists and can be booked at its own price: the caller may pay that.
      throw new PriceChangedError({ orderId: prebook.prebookId, previousTotalAmount: request.amount, newTotalAmount: total, currency: prebook.pricing.display.currency });
    }
    return prebookOrder(prebook);
  }

  async payOrder(payment: OrderPayment): Promise<ProviderOrder> {
    const found = await this.#find(payment.orderId);
    if (!('prebook' in found) || found.prebook.status !== 'PREBOOKED') return this.#payable(found);
    const prebook = found.prebook;
    const total = totalOf(prebook.pricing);
    if (total !== payment.amount || prebook.pricing.display.currency !== payment.currency) throw this.#changed(prebook, payment);
    try {
      const booked = await this.calls.call('booking', 'post', 'bookings', WireBookingAnswer, {
        json: { prebookId: prebook.prebookId, payment: { method: 'CREDIT', amount: Number(payment.amount), currency: payment.currency } },
        handled: [ERROR_CODES.amountMismatch, ERROR_CODES.prebookNotFound],
      });
      return bookingOrder(booked.data);
    } catch (error) {
      if (!(error instanceof NativeError)) throw error;
      // Its price or its state moved between our read and the booking: read it again and say what.
      const again = await this.#find(prebook.prebookId);
      if (error.code === ERROR_CODES.amountMismatch && 'prebook' in again) throw this.#changed(again.prebook, payment);
      return this.#payable(again);
    }
  }

  async retrieveOrder(orderId: string): Promise<ProviderOrder> {
    return this.#orderOf(await this.#find(orderId));
  }

  async cancelOrder(orderId: string): Promise<OrderCancellation> {
    const found = await this.#find(orderId);
    const bookingId = 'booking' in found ? found.booking.bookingId : found.prebook.bookingId;
    if (bookingId) {
      const { data } = await this.calls.call('booking', 'delete', `bookings/${encodeURIComponent(bookingId)}`, WireBookingAnswer);
      return cancellation(data.bookingId, data.cancelledAt ?? this.clock.now().toISOString(), data.refund ?? null);
    }
    const prebookId = (found as { prebook: WirePrebook }).prebook.prebookId;
    try {
      const { data } = await this.calls.call('booking', 'delete', `prebooks/${encodeURIComponent(prebookId)}`, WirePrebookAnswer, { handled: [ERROR_CODES.prebookBooked] });
      // Nothing is paid before the booking, so nothing comes back.
      return cancellation(data.prebookId, data.cancelledAt ?? this.clock.now().toISOString(), null);
    } catch (error) {
      // Booked meanwhile: cancelling it now cancels its booking.
      if (error instanceof NativeError) return this.cancelOrder(prebookId);
      throw error;
    }
  }

  /** The offer's binding price now; a total moved since the offer is said before anything is placed. */
  async #verify(request: OrderRequest, offerId: string): Promise<void> {
    const { display } = (await this.calls.call('booking', 'post', 'verify', WireVerifyAnswer, { json: { offerId } })).data.offer.pricing;
    // An offer does not change currency: one that did is not an answer we can act on.
    if (display.currency !== request.offer.total_currency) throw failures.unavailable();
    const currency = request.currency;
    const verified = failures.map(() => toDecimalString(display.total, display.currency, 'pricing.display.total'));
    if (verified === request.offer.total_amount) return;
    const moved = toMinorUnits(verified, currency) - toMinorUnits(request.offer.total_amount, currency);
    throw new PriceChangedError({ orderId: null, previousTotalAmount: request.amount, newTotalAmount: fromMinorUnits(toMinorUnits(request.amount, currency) + moved, currency), currency });
  }

  /** The bags asked for, and the seats as the SEAT services of the seat maps. */
  async #services(request: OrderRequest, offerId: string): Promise<{ serviceId: string; quantity: number }[]> {
    const bags = request.services.map((service) => ({ serviceId: service.id, quantity: service.quantity }));
    if (request.seats.length === 0) return bags;
    const { seatmaps } = (await this.calls.call('booking', 'post', 'seatmaps', WireSeatMapsAnswer, { json: { offerId } })).data;
    const seats = request.seats.map((seat) => {
      const service = seatmaps
        .find((map) => map.segmentRef === seat.segmentId)
        ?.servicesAttachable.find((item) => item.passengerRef === seat.providerPassengerId && item.seatNumber === seat.seatNumber);
      if (!service) {
        throw new ProviderRejectedError(
          `Seat ${seat.seatNumber} is no longer available on segment ${seat.segmentId}: choose another from the seat map.`,
          'seat_unavailable',
          `${PROVIDER_ID}: seat ${seat.seatNumber} not attachable`,
        );
      }
      return { serviceId: service.serviceId, quantity: 1 };
    });
    return [...bags, ...seats];
  }

  /** A prebook id or a booking id, whichever it is; neither: provider_order_not_found. */
  async #find(orderId: string): Promise<Found> {
    const id = encodeURIComponent(orderId);
    try {
      return { prebook: (await this.calls.call('booking', 'get', `prebooks/${id}`, WirePrebookAnswer, { handled: [ERROR_CODES.prebookNotFound] })).data };
    } catch (error) {
      if (!(error instanceof NativeError)) throw error;
    }
    try {
      return { booking: (await this.calls.call('booking', 'get', `bookings/${id}`, WireBookingAnswer, { handled: [ERROR_CODES.bookingNotFound] })).data };
    } catch (error) {
      if (error instanceof NativeError) throw new NotFoundError('provider_e has no order with this id: check the provider order id.', 'provider_order_not_found');
      throw error;
    }
  }

  /** A booked prebook is its booking. */
  async #orderOf(found: Found): Promise<ProviderOrder> {
    if ('booking' in found) return bookingOrder(found.booking);
    if (found.prebook.bookingId) return this.retrieveOrder(found.prebook.bookingId);
    return prebookOrder(found.prebook);
  }

  /** What paying an order that is not an open prebook answers: the paid order, or why it cannot be paid. */
  async #payable(found: Found): Promise<ProviderOrder> {
    const order = await this.#orderOf(found);
    if (order.status !== 'cancelled' || 'booking' in found || found.prebook.bookingId) return order;
    if (found.prebook.status === 'EXPIRED') throw new GoneError('The airline released this held order: its payment deadline passed. Search again and book anew.', 'offer_expired');
    throw new GoneError('This held order was cancelled at the airline and can no longer be paid: book again.', 'provider_order_cancelled');
  }

  #changed(prebook: WirePrebook, payment: OrderPayment): PriceChangedError {
    return new PriceChangedError({ orderId: prebook.prebookId, previousTotalAmount: payment.amount, newTotalAmount: totalOf(prebook.pricing), currency: prebook.pricing.display.currency });
  }
}
