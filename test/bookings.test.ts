/**
 * Booking an offer end to end over REST, on every provider: a partner's offer, a traveler's card from the
 * vault, real OAuth, the provider's sandbox and the processor's over HTTP. The booking reads back
 * confirmed with the PNR, its passengers (tickets where the provider gives them, seats), its offer and the
 * trip; the processor captured exactly the total and the provider holds a confirmed order.
 */
import test from 'ava';
import { toMinorUnits } from '../core/money/money.js';
import { asPartner } from './helpers/cards.js';
import { book, booker, intentRecord, prepareBooking, sandboxOrder, type Booker } from './helpers/bookings.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let ada: Booker;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
});
test.after.always(async () => {
  await running?.close();
});

const PROVIDERS_WITH_TICKETS = new Set(['provider_a', 'provider_b', 'provider_c', 'provider_e']);

for (const providerId of ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e']) {
  test(`${providerId}: an offer is booked over REST and reads back confirmed, with PNR, passengers, seats and the charge`, async (t) => {
    const { offerId, order, body } = await prepareBooking(running, ada, providerId);
    const created = await book(running, ada, providerId, body);
    const answer = await jsonOf(created);
    t.is(created.status, 201, JSON.stringify(answer));
    t.is(answer.status, 'confirmed');
    const booking = answer.booking;
    t.like(booking, { status: 'confirmed', provider_id: providerId, flight_offer_id: offerId, user_id: ada.userId, payment_method_id: ada.cardId, card_brand: 'visa', card_last4: '4242', currency: order.currency, order_type: 'instant', idempotency_key: body.idempotency_key });
    t.regex(booking.airline_pnr, /^[A-Z0-9]{6}$/);
    t.is(booking.total_amount, Number(order.amount), 'the total is the offer plus seats and services');
    t.is(booking.passenger_count, order.passengers.length);
    t.is(answer.payment_intent_id, booking.payment_intent_id);

    const intent = await intentRecord(running, booking.payment_intent_id);
    t.like(intent, { status: 'succeeded', currency: order.currency.toLowerCase() });
    t.is(BigInt(intent.amount_received), toMinorUnits(order.amount, order.currency), 'the processor captured exactly the total');
    t.is((await sandboxOrder(running, providerId, booking.provider_order_id)).status.toLowerCase() !== 'held', true, 'the provider’s order is paid');

    const read = await jsonOf(await asPartner(running, ada, `/v1/flights/providers/${providerId}/bookings/${booking.id}`));
    t.deepEqual(read.booking, booking);
    t.deepEqual(await jsonOf(await asPartner(running, ada, `/v1/users/me/bookings/${booking.id}`)), booking);

    const passengers = await jsonOf(await asPartner(running, ada, `/v1/users/me/bookings/${booking.id}/passengers`));
    t.is(passengers.length, order.passengers.length);
    for (const passenger of passengers) {
      const sent = order.passengers.find((item) => item.providerPassengerId === passenger.provider_passenger_id);
      t.like(passenger, { first_name: sent?.firstName, last_name: sent?.lastName, date_of_birth: sent?.bornOn });
      if (PROVIDERS_WITH_TICKETS.has(providerId)) t.regex(passenger.ticket_number ?? '', /^\d{13}$/, 'ticketed');
      const seats = order.seats.filter((seat) => seat.providerPassengerId === passenger.provider_passenger_id);
      t.deepEqual(
        passenger.seat_selections.map((seat: { seat_number: string }) => seat.seat_number),
        seats.map((seat) => seat.seatNumber),
      );
    }
    const offer = await jsonOf(await asPartner(running, ada, `/v1/users/me/bookings/${booking.id}/offer`));
    t.is(offer.id, offerId);
    t.is(offer.provider_id, providerId);
    const trips = await jsonOf(await asPartner(running, ada, '/v1/users/me/bookings?limit=100'));
    t.true(trips.some((trip: { id: string }) => trip.id === booking.id));
  });
}
