/**
 * What the three parties recorded of a booking, read straight from their own tables: our booking row,
 * the processor sandbox's payment intents and refunds, and the provider sandbox's order. A failure test
 * asserts all three agree that no money is held and no order is left open.
 */
import type { ExecutionContext } from 'ava';
import type { Json } from './http.js';
import { asPartner } from './cards.js';
import type { RunningService } from './service.js';

const knex = (running: RunningService) => running.service.db.knex;

/** Our booking row made with the traveler's idempotency key (there is one even when the request failed). */
export async function bookingByKey(running: RunningService, userId: string, key: string): Promise<Json | undefined> {
  return knex(running)('bookings').where({ user_id: userId, idempotency_key: key }).first();
}

/**
 * Every payment intent the processor made for a booking: the saga describes each authorization with the
 * booking's id, so a decline (which leaves an intent behind) or a retry's second authorization is found too.
 */
export async function intentsOf(running: RunningService, bookingId: string): Promise<Json[]> {
  return knex(running)('processor_sandbox_payment_intents').where({ description: `Flight booking ${bookingId}` }).orderBy('created_at');
}

export async function refundsOf(running: RunningService, intentId: string): Promise<Json[]> {
  return knex(running)('processor_sandbox_refunds').where({ payment_intent_id: intentId });
}

/**
 * The provider sandbox's order placed for a booking: orders carry our booking id as their reference
 * (provider_d's sandbox prefixes it with the partner account that placed it).
 */
export async function orderOf(running: RunningService, providerId: string, bookingId: string): Promise<Json | undefined> {
  return knex(running)('flight_sandbox_orders')
    .where({ provider_id: providerId })
    .where((where) => where.where({ reference: bookingId }).orWhere('reference', 'like', `%:${bookingId}`))
    .first();
}

/** The processor holds nothing for the booking: no intent authorized or captured, and its own intent (if any) voided. */
export async function assertNothingHeld(t: ExecutionContext, running: RunningService, booking: Json): Promise<void> {
  const intents = await intentsOf(running, booking.id);
  for (const intent of intents) t.false(['requires_capture', 'succeeded'].includes(intent.status), `intent ${intent.id} is ${intent.status}`);
  if (booking.payment_intent_id) {
    t.is(intents.find((intent) => intent.id === booking.payment_intent_id)?.status, 'canceled', 'the authorization was voided');
  }
}

/** The booking failed with `code`, is no trip of the traveler, and holds no money. */
export async function assertFailed(t: ExecutionContext, running: RunningService, who: { userId: string; partner: { apiKey: string }; token: string }, key: string, code: string): Promise<Json> {
  const booking = await bookingByKey(running, who.userId, key);
  if (!booking) {
    t.fail(`no booking was stored under ${key}`);
    return {};
  }
  t.is(booking.status, 'failed');
  t.is(booking.failure?.code, code, 'the failure is kept to answer repeats');
  t.is(booking.lease_owner, null, 'no process still drives it');
  const trips = await (await asPartner(running, who, '/v1/users/me/bookings?limit=100')).json();
  t.false((trips as { id: string }[]).some((trip) => trip.id === booking.id), 'a failed booking is not a trip');
  await assertNothingHeld(t, running, booking);
  return booking;
}

/** An order status as the sandboxes spell it (CANCELLED, cancelled, Cancelled, ...), in lower case. */
export function orderStatus(order: Json | undefined): string | undefined {
  return typeof order?.status === 'string' ? order.status.toLowerCase() : undefined;
}
