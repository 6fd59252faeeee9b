/**
 * The quote of a checked booking: its total in parts, and the fingerprint that binds a confirmation to
 * exactly this purchase. Also the `expected_total` check (stable quotes): a caller who says what total it
 * showed the traveler is refused, before any card is touched, when the total is another.
 */
import { createHash } from 'node:crypto';
import { TotalChangedError, type TotalBreakdown } from '../errors.js';
import type { BookableOffer } from '../flights/offers.js';
import { fromMinorUnits, toMinorUnits } from '../money/money.js';
import type { ChargeableCard } from '../payment-methods/service.js';
import type { BookingPlan } from './booking-plan.js';
import type { PurchaseQuote } from './purchase-gate.js';
import type { CreateBookingRequest } from './schemas.js';

export function quotePurchase(input: {
  userId: string;
  clientId: string | undefined;
  providerId: string;
  offer: BookableOffer;
  plan: BookingPlan;
  card: ChargeableCard;
  request: CreateBookingRequest;
}): PurchaseQuote {
  const { plan, offer } = input;
  const currency = plan.currency;
  const services = chosenServices(offer, plan);
  const seats = plan.seats.map((seat) => ({ segment_id: seat.segmentId, provider_passenger_id: seat.providerPassengerId, seat_number: seat.seatNumber, price: seat.price }));
  const breakdown = totalBreakdown(offer, plan);
  const passengers = plan.passengers.map((passenger) => ({
    provider_passenger_id: passenger.providerPassengerId,
    type: passenger.type,
    first_name: passenger.firstName,
    last_name: passenger.lastName,
    born_on: passenger.bornOn,
  }));
  const offerVersion = offerVersionOf(offer.offer);
  const card = { id: input.card.id, brand: input.card.brand, last4: input.card.last4 };
  const quote = {
    userId: input.userId,
    clientId: input.clientId,
    providerId: input.providerId,
    offerId: offer.id,
    offerVersion,
    amountMinor: plan.amountMinor,
    amount: plan.amount,
    currency,
    breakdown,
    passengers,
    seats,
    services,
    card,
    contactEmail: input.request.contact_info.email,
  };
  // Everything the traveler is shown and the order is made of: passengers in full (documents too), not
  // just their names, so that a changed passport needs a fresh confirmation as well.
  const fingerprint = digest({
    providerId: input.providerId,
    offerId: offer.id,
    offerVersion,
    amountMinor: plan.amountMinor.toString(),
    currency,
    passengers: input.request.passengers,
    contact: input.request.contact_info,
    seats,
    services: plan.services,
    orderType: plan.orderType,
    card: card.id,
  });
  return { ...quote, fingerprint };
}

/** The total in parts: the offer's base and tax, the chosen services and seats. */
export function totalBreakdown(offer: BookableOffer, plan: BookingPlan): TotalBreakdown {
  const currency = plan.currency;
  const servicesMinor = chosenServices(offer, plan).reduce((sum, service) => sum + toMinorUnits(service.total_amount, currency) * BigInt(service.quantity), 0n);
  const seatsMinor = plan.seats.reduce((sum, seat) => sum + (seat.price === null ? 0n : toMinorUnits(seat.price, currency)), 0n);
  return {
    base_amount: offer.offer.base_amount ?? null,
    tax_amount: offer.offer.tax_amount ?? null,
    services_amount: fromMinorUnits(servicesMinor, currency),
    seats_amount: fromMinorUnits(seatsMinor, currency),
    total_amount: plan.amount,
    currency,
  };
}

/** The offer's services chosen, with their titles as the offer names them. */
function chosenServices(offer: BookableOffer, plan: BookingPlan): PurchaseQuote['services'] {
  const byId = new Map((offer.offer.available_services ?? []).map((service) => [service.id, service]));
  return plan.services.map((chosen) => {
    const service = byId.get(chosen.id);
    return { id: chosen.id, quantity: chosen.quantity, title: service?.name ?? service?.type ?? chosen.id, total_amount: service?.total_amount ?? '0' };
  });
}

/** 409 `total_changed` when the caller expected another total than the quote's. */
export function checkExpectedTotal(expected: CreateBookingRequest['expected_total'], quote: Pick<PurchaseQuote, 'amountMinor' | 'breakdown'>): void {
  if (!expected) return;
  const same = expected.currency === quote.breakdown.currency && toMinorUnits(expected.amount, expected.currency) === quote.amountMinor;
  if (!same) throw new TotalChangedError(expected, quote.breakdown);
}

/**
 * What the traveler buys of the offer: its flights, fares, conditions and prices. Not its timestamps nor
 * the provider's own copy, which a new pricing at the same price rewrites: that is the same purchase.
 */
function offerVersionOf(offer: BookableOffer['offer']): string {
  const { created_at: _created, updated_at: _updated, expires_at: _expires, raw_offer: _raw, payment_requirements, ...bought } = offer;
  return digest({ ...bought, requires_instant_payment: payment_requirements.requires_instant_payment });
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(sorted(value))).digest('base64url');
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((name) => [name, sorted((value as Record<string, unknown>)[name])]));
  return value;
}
