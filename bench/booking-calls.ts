/**
 * The two things the booking benchmark times, one booking each:
 *
 * - `sandboxBooking`: the sandboxes alone. The native calls a provider_b booking makes, in the saga's
 *   order, straight over HTTP: the processor's authorization (manual capture, the traveler's vault
 *   token), the provider's order, the processor's capture.
 * - `serviceBooking`: createProviderBooking over REST, which makes those same calls and everything
 *   around them (key, token, offer and card checks, the booking's rows and steps).
 *
 * Each throws when the answer is not a success, so that a failure is never timed as a booking.
 */
import { toMinorUnits } from '../core/money/money.js';
import { bookingBody } from '../test/helpers/bookings.js';
import { benchOrder, nativeOrderBody } from './booking-order.js';

/** Where the service and its sandboxes listen, with what they are called, and the offer booked. */
export interface BookingTarget {
  url: string;
  apiKey: string;
  processor: { url: string; apiKey: string };
  provider: { url: string; token: string };
  /** provider_b's own offer, as its API serves it. */
  nativeOffer: Record<string, unknown>;
}

export interface BenchTraveler {
  token: string;
  /** The saved card the bookings are paid with. */
  cardId: string;
  /** A vault token of the same card, for the processor's direct calls. */
  vaultToken: string;
}

/** Authorize, order, capture: returns the processor's payment intent and the provider's order. */
export async function sandboxBooking(target: BookingTarget, traveler: BenchTraveler, reference: string): Promise<{ intentId: string; orderId: string }> {
  const order = benchOrder(target.nativeOffer, reference);
  const authorized = await processorCall(target, 'v1/payment_intents', `${reference}:authorize`, {
    amount: toMinorUnits(order.amount, order.currency).toString(),
    currency: order.currency.toLowerCase(),
    payment_method: traveler.vaultToken,
    capture_method: 'manual',
    confirm: 'true',
    description: `Flight booking ${reference}`,
  });
  if (authorized.status !== 'requires_capture') throw new Error(`the processor did not authorize: ${JSON.stringify(authorized)}`);
  const placed = await fetch(`${target.provider.url}/air/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.provider.token}`, 'duffel-version': 'v2', 'content-type': 'application/json' },
    body: JSON.stringify(nativeOrderBody(order)),
  });
  const placedBody = (await placed.json()) as { data?: { id?: string } };
  if (placed.status !== 201 || !placedBody.data?.id) throw new Error(`the provider placed no order: ${placed.status} ${JSON.stringify(placedBody)}`);
  const captured = await processorCall(target, `v1/payment_intents/${authorized.id}/capture`, `${reference}:capture`, {});
  if (captured.status !== 'succeeded') throw new Error(`the processor did not capture: ${JSON.stringify(captured)}`);
  return { intentId: authorized.id as string, orderId: placedBody.data.id };
}

/** createProviderBooking for our offer `offerId`: returns the booking, which must be confirmed. */
export async function serviceBooking(target: BookingTarget, traveler: BenchTraveler, offerId: string, idempotencyKey: string): Promise<{ id: string; payment_intent_id: string; provider_order_id: string }> {
  const order = benchOrder(target.nativeOffer, idempotencyKey);
  const response = await fetch(`${target.url}/v1/flights/providers/provider_b/bookings`, {
    method: 'POST',
    headers: { 'x-api-key': target.apiKey, authorization: `Bearer ${traveler.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(bookingBody(offerId, order, traveler, { key: idempotencyKey })),
  });
  const body = (await response.json()) as { booking?: { id: string; status: string; payment_intent_id: string; provider_order_id: string } };
  if (response.status !== 201 || body.booking?.status !== 'confirmed') throw new Error(`not booked: ${response.status} ${JSON.stringify(body)}`);
  return body.booking;
}

/** createProviderOffer with provider_b's offer: each booking books an offer of its own. */
export async function createOffer(target: Pick<BookingTarget, 'url' | 'apiKey' | 'nativeOffer'>): Promise<string> {
  const response = await fetch(`${target.url}/v1/flights/providers/provider_b/offers`, {
    method: 'POST',
    headers: { 'x-api-key': target.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(target.nativeOffer),
  });
  const body = (await response.json()) as { offer_id?: string };
  if (response.status !== 201 || !body.offer_id) throw new Error(`no offer: ${response.status} ${JSON.stringify(body)}`);
  return body.offer_id;
}

async function processorCall(target: BookingTarget, path: string, idempotencyKey: string, form: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(`${target.processor.url}/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.processor.apiKey}`, 'idempotency-key': idempotencyKey, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`the processor answered ${response.status} to ${path}: ${JSON.stringify(body)}`);
  return body;
}
