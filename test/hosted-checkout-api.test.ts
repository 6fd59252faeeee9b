/**
 * The hosted checkout's page and JSON API over real HTTP (decisions §12, issue 24 item 3), provider_b:
 * the page names no secret and sets no cookie, and only the session's origin may frame it; the client
 * secret opens the session and nothing of the traveler's; the sign-in inside it has the hosted sign-in's
 * limits; one booking per session whatever the clicks and reloads; a declined card, a changed price (taken
 * and refused), a sold-out flight and an expired session, each handled as the page needs.
 */
import test from 'ava';
import { toMinorUnits } from '../core/money/money.js';
import { MAGIC_OFFERS } from '../providers/flights/provider-b/sandbox.js';
import { intentRecord } from './helpers/bookings.js';
import { latestCode } from './helpers/browser.js';
import {
  bookingsOfSession,
  checkoutApi,
  checkoutCard,
  checkoutPartner,
  choicesOf,
  openCheckout,
  partnerOffer,
  signInToCheckout,
  type CheckoutPartner,
  type OpenedCheckout,
} from './helpers/checkout.js';
import { jsonOf } from './helpers/http.js';
import { uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const PAGE = 'https://www.example-airline.com';

let running: RunningService;
let partner: CheckoutPartner;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  partner = await checkoutPartner(running);
});
test.after.always(async () => {
  await running?.close();
});

const open = (path: Parameters<typeof openCheckout>[4] = 'normal') => openCheckout(running, partner, 'provider_b', PAGE, path);

/** A checkout with a signed-in traveler who saved a card; the traveler token and the card. */
async function readyToPay(checkout: OpenedCheckout, number?: string): Promise<{ traveler: string; cardId: string; email: string }> {
  const email = uniqueEmail('checkout');
  const traveler = await signInToCheckout(running, checkout, email);
  const cardId = await checkoutCard(running, checkout, traveler, number);
  return { traveler, cardId, email };
}

async function review(checkout: OpenedCheckout, traveler: string, choices: object) {
  const answer = await checkoutApi(running, checkout, 'review', { body: choices, traveler });
  return answer;
}

test('the page: no secret and no cookie, our script only, framed by the session’s origin only', async (t) => {
  const checkout = await open();
  const response = await fetch(`${running.config.authUrl}/checkout/${checkout.id}`);
  t.is(response.status, 200);
  const html = await response.text();
  t.false(html.includes(checkout.clientSecret.split('_secret_')[1] as string), 'the secret is only in the URL fragment');
  t.is(response.headers.get('set-cookie'), null);
  t.is(response.headers.get('x-frame-options'), null, 'frame-ancestors decides who frames it');
  const csp = response.headers.get('content-security-policy') ?? '';
  t.regex(csp, new RegExp(`frame-ancestors ${PAGE.replaceAll('.', '\\.')}(;|$)`));
  t.regex(csp, /script-src 'self'/);
  t.regex(csp, /connect-src 'self'/);
  t.regex(csp, new RegExp(`frame-src ${new URL(running.config.vault?.url ?? '').origin}`));
  t.notRegex(csp, /unsafe-inline/);
  t.false(/<script(?![^>]*\bsrc=)/.test(html), 'no inline script');

  const unknown = await fetch(`${running.config.authUrl}/checkout/5b7e2c1a-8f3d-4a69-b0e4-2d9c6f1a7e38`);
  t.is(unknown.status, 404);
  t.regex(unknown.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  const script = await fetch(`${running.config.authUrl}/checkout/assets/checkout.js`);
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /javascript/);
});

test('the client secret opens its own session only: a wrong one, another session’s, or none is the same 404', async (t) => {
  const [checkout, other] = [await open(), await open()];
  const opened = await checkoutApi(running, checkout, 'session');
  t.is(opened.status, 200);
  t.like(opened.body.session, { id: checkout.id, status: 'open', origin: PAGE, provider_id: 'provider_b' });
  t.is(opened.body.offer.total_amount, checkout.order.offer.total_amount, 'the offer as we keep it');
  t.like(opened.body.steps, { pricing: false, seats: true, bags: true, documents: true });
  t.is(opened.body.traveler, null);
  t.is(opened.headers.get('set-cookie'), null);
  for (const secret of [other.clientSecret, `${checkout.clientSecret}x`, '', 'cs_nothing']) {
    const refused = await checkoutApi(running, checkout, 'session', { secret });
    t.is(refused.status, 404, secret);
    t.is(refused.body.code, 'checkout_session_not_found');
  }
  t.is((await checkoutApi(running, checkout, 'session', { secret: null })).status, 404);
  t.is((await checkoutApi(running, checkout, 'seat-maps', { secret: other.clientSecret })).status, 404);
});

test('the secret alone reaches nothing of a traveler’s: saved passengers, cards, the vault and booking need the traveler signed in here', async (t) => {
  const checkout = await open();
  for (const [path, body] of [
    ['passengers', undefined],
    ['cards', undefined],
    ['card-session', {}],
    ['review', {}],
    ['pay', {}],
    ['passengers', { first_name: 'Ada', last_name: 'Lovelace', born_on: '1985-12-10', gender: 'female' }],
    ['sign-out', {}],
  ] as const) {
    const refused = await checkoutApi(running, checkout, path, { body, method: body === undefined ? 'GET' : 'POST' });
    t.is(refused.status, 401, path);
    t.is(refused.body.code, 'checkout_sign_in_required', path);
  }
  // Another session's traveler token is no token here; a new sign-in replaces the last one's.
  const other = await open();
  const otherToken = await signInToCheckout(running, other, uniqueEmail('other'));
  t.is((await checkoutApi(running, checkout, 'cards', { traveler: otherToken })).status, 401);
  const first = await signInToCheckout(running, checkout, uniqueEmail('first'));
  t.is((await checkoutApi(running, checkout, 'cards', { traveler: first })).status, 200);
  const row = await running.service.db.knex('checkout_sessions').where({ id: checkout.id }).first();
  t.false(JSON.stringify(row).includes(first), 'only a digest of the traveler token is kept');
  await running.service.db.knex('sign_in_codes').where({ attempt_id: `checkout:${checkout.id}` }).update({ sent_at: new Date(0) });
  const second = await signInToCheckout(running, checkout, uniqueEmail('second'));
  t.is((await checkoutApi(running, checkout, 'cards', { traveler: first })).status, 401, 'the first traveler’s token died with the second sign-in');
  t.is((await checkoutApi(running, checkout, 'cards', { traveler: second })).status, 200);
  t.is((await checkoutApi(running, checkout, 'session', { traveler: second })).body.traveler.email.includes('second'), true);
});

test('signing in inside the checkout has the hosted sign-in’s limits: five tries per code, a new code once a minute, ten codes an hour to one address', async (t) => {
  const checkout = await open();
  const email = uniqueEmail('limits');
  t.is((await checkoutApi(running, checkout, 'sign-in', { body: { email: 'not an address' } })).status, 400);
  const sent = await checkoutApi(running, checkout, 'sign-in', { body: { email } });
  t.like(sent, { status: 200, body: { digits: 6, sent_to: email } });
  const again = await checkoutApi(running, checkout, 'sign-in/resend', { method: 'POST' });
  t.is(again.status, 429);
  t.is(again.body.code, 'code_resend_too_soon');
  const code = await latestCode(running.url, email);
  const wrong = code === '000000' ? '111111' : '000000';
  for (let attempt = 1; attempt <= 5; attempt++) {
    const refused = await checkoutApi(running, checkout, 'sign-in/code', { body: { code: wrong } });
    t.is(refused.status, 400, `try ${attempt}`);
  }
  const locked = await checkoutApi(running, checkout, 'sign-in/code', { body: { code } });
  t.is(locked.status, 410, 'after five wrong tries even the right code needs a new one');
  t.is(locked.body.code, 'code_locked');

  // The address's budget is the hosted sign-in's: ten codes an hour from one network.
  const address = uniqueEmail('budget');
  const statuses: number[] = [];
  for (let index = 0; index < 11; index++) {
    const session = await openCheckout(running, partner, 'provider_b', PAGE, 'normal', { offerId: checkout.offerId, order: checkout.order });
    statuses.push((await checkoutApi(running, session, 'sign-in', { body: { email: address } })).status);
  }
  t.deepEqual(statuses, [...Array(10).fill(200), 429]);
});

test('a traveler books once: the review’s total is what the processor captures, the session completes with the booking', async (t) => {
  const checkout = await open();
  const { traveler, cardId } = await readyToPay(checkout);
  const choices = choicesOf(checkout.order, cardId);
  const reviewed = await review(checkout, traveler, choices);
  t.is(reviewed.status, 200, JSON.stringify(reviewed.body));
  t.is(reviewed.body.total_amount, checkout.order.amount, 'the offer, its seats and bags');
  t.like(reviewed.body, { currency: 'GBP', priced: false, previous_total_amount: null, card: { id: cardId, last4: '4242' } });
  const paid = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: reviewed.body.total_amount, currency: 'GBP' } }, traveler });
  t.is(paid.status, 200, JSON.stringify(paid.body));
  t.like(paid.body, { status: 'confirmed', provider_id: 'provider_b', total_amount: checkout.order.amount });
  t.regex(paid.body.airline_pnr, /^[A-Z0-9]{6}$/);

  const read = await jsonOf(await fetch(`${running.url}/v1/checkout/sessions/${checkout.id}`, { headers: { 'x-api-key': partner.apiKey } }));
  t.like(read, { status: 'complete', booking_id: paid.body.booking_id, airline_pnr: paid.body.airline_pnr, total_amount: checkout.order.amount });
  const [booking] = await bookingsOfSession(running, checkout.id);
  t.like(booking, { id: paid.body.booking_id, status: 'confirmed', partner_id: partner.partnerId, client_id: null, idempotency_key: `checkout_${checkout.id}_1`, order_type: 'instant' });
  t.deepEqual(booking.metadata, { iata_code: 'TP', checkout_session_id: checkout.id });
  const intent = await intentRecord(running, booking.payment_intent_id);
  t.is(BigInt(intent.amount_received), toMinorUnits(reviewed.body.total_amount, 'GBP'), 'captured exactly the review’s total');
  t.is((await running.service.db.knex('booking_seat_selections').where({ booking_id: booking.id })).length, checkout.order.seats.length);
});

test('a double submit and a reload book once: two pays at once answer one booking, a pay after it answers it again', async (t) => {
  const checkout = await open();
  const { traveler, cardId } = await readyToPay(checkout);
  const choices = choicesOf(checkout.order, cardId);
  const total = (await review(checkout, traveler, choices)).body.total_amount;
  const body = { ...choices, expected_total: { amount: total, currency: 'GBP' } };
  const [first, second] = await Promise.all([checkoutApi(running, checkout, 'pay', { body, traveler }), checkoutApi(running, checkout, 'pay', { body, traveler })]);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.is(second.status, 200, JSON.stringify(second.body));
  t.is(first.body.booking_id, second.body.booking_id);
  const reload = await checkoutApi(running, checkout, 'pay', { body: { ...body, seats: [] }, traveler });
  t.like(reload, { status: 200, body: { booking_id: first.body.booking_id, status: 'confirmed' } });
  const bookings = await bookingsOfSession(running, checkout.id);
  t.is(bookings.length, 1, 'one booking');
  t.is((await running.service.db.knex('processor_sandbox_payment_intents').where({ description: `Flight booking ${first.body.booking_id}` })).length, 1, 'one charge');
  const summary = await checkoutApi(running, checkout, 'session', { traveler });
  t.like(summary.body.session, { status: 'complete', booking_id: first.body.booking_id });
});

test('a declined card stays in the checkout: another card then books, once', async (t) => {
  const checkout = await open();
  const { traveler, cardId: declined } = await readyToPay(checkout, '4000000000000002');
  const choices = choicesOf(checkout.order, declined);
  const total = (await review(checkout, traveler, choices)).body.total_amount;
  const refused = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: total, currency: 'GBP' } }, traveler });
  t.is(refused.status, 402);
  t.is(refused.body.code, 'card_declined');
  t.is((await checkoutApi(running, checkout, 'session')).body.session.status, 'open', 'the session stays open');

  const good = await checkoutCard(running, checkout, traveler);
  const paid = await checkoutApi(running, checkout, 'pay', { body: { ...choices, payment_method_id: good, expected_total: { amount: total, currency: 'GBP' } }, traveler });
  t.is(paid.status, 200, JSON.stringify(paid.body));
  t.is(paid.body.status, 'confirmed');
  const bookings = await bookingsOfSession(running, checkout.id);
  t.deepEqual(
    bookings.map((booking) => [booking.idempotency_key, booking.status]),
    [
      [`checkout_${checkout.id}_1`, 'failed'],
      [`checkout_${checkout.id}_2`, 'confirmed'],
    ],
  );
  const captured = await running.service.db.knex('processor_sandbox_payment_intents').whereIn('id', bookings.map((booking) => booking.payment_intent_id).filter(Boolean)).where('amount_received', '>', 0);
  t.is(captured.length, 1, 'charged once');
});

test('a price that moved at the airline is shown in place: taken, the new total is charged', async (t) => {
  const offer = await partnerOffer(running, partner, 'provider_b', 'priceChangedAtBooking');
  const checkout = await openCheckout(running, partner, 'provider_b', PAGE, 'normal', offer);
  t.is(checkout.order.raw.id, MAGIC_OFFERS.priceChangeAtBooking);
  const { traveler, cardId } = await readyToPay(checkout);
  const choices = choicesOf(checkout.order, cardId, { extras: false });
  const first = await review(checkout, traveler, choices);
  t.is(first.body.total_amount, '512.46');
  const changed = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: '512.46', currency: 'GBP' } }, traveler });
  t.is(changed.status, 409);
  t.like(changed.body, { code: 'price_changed', previous_total_amount: '512.46' });
  const again = await review(checkout, traveler, choices);
  t.like(again.body, { total_amount: '550.89', offer_total_amount: '550.89' });
  const stale = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: '512.46', currency: 'GBP' } }, traveler });
  t.like(stale, { status: 409, body: { code: 'total_changed' } }, 'the old total is never charged');
  const paid = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: '550.89', currency: 'GBP' } }, traveler });
  t.is(paid.status, 200, JSON.stringify(paid.body));
  t.like(paid.body, { status: 'confirmed', total_amount: '550.89' });
  const booking = (await bookingsOfSession(running, checkout.id)).find((row) => row.status === 'confirmed');
  t.is(BigInt((await intentRecord(running, booking.payment_intent_id)).amount_received), 55089n);
});

test('a price that moved, refused: the traveler searches again and the session ends without a booking', async (t) => {
  const offer = await partnerOffer(running, partner, 'provider_b', 'priceChangedAtBooking');
  const checkout = await openCheckout(running, partner, 'provider_b', PAGE, 'normal', offer);
  const { traveler, cardId } = await readyToPay(checkout);
  const choices = choicesOf(checkout.order, cardId, { extras: false });
  t.is((await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: '512.46', currency: 'GBP' } }, traveler })).status, 409);
  const abandoned = await checkoutApi(running, checkout, 'abandon', { body: { reason: 'search_again' }, traveler });
  t.like(abandoned, { status: 200, body: { status: 'failed', failure_reason: 'search_again' } });
  const after = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: '550.89', currency: 'GBP' } }, traveler });
  t.like(after, { status: 409, body: { code: 'checkout_session_closed' } });
  t.deepEqual((await bookingsOfSession(running, checkout.id)).map((row) => row.status), ['failed']);
});

test('sold out at the airline: 422 offer_unavailable, and the session fails', async (t) => {
  const checkout = await open();
  const { traveler, cardId } = await readyToPay(checkout);
  const choices = choicesOf(checkout.order, cardId, { lastName: 'SOLDOUT', extras: false });
  const total = (await review(checkout, traveler, choices)).body.total_amount;
  const refused = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: total, currency: 'GBP' } }, traveler });
  t.like(refused, { status: 422, body: { code: 'offer_unavailable', details: 'offer_no_longer_available' } });
  const read = await jsonOf(await fetch(`${running.url}/v1/checkout/sessions/${checkout.id}`, { headers: { 'x-api-key': partner.apiKey } }));
  t.like(read, { status: 'failed', failure_reason: 'offer_unavailable', booking_id: null });
  t.is((await checkoutApi(running, checkout, 'session')).body.session.status, 'failed');
});

test('an offer that expired before its session fails the session as soon as the page opens', async (t) => {
  const offer = await partnerOffer(running, partner, 'provider_b');
  const checkout = await openCheckout(running, partner, 'provider_b', PAGE, 'normal', offer);
  await running.service.db.knex('offers').where({ id: offer.offerId }).update({ expires_at: new Date(Date.now() + 1000) });
  await running.service.db.knex('checkout_sessions').where({ id: checkout.id }).update({ expires_at: new Date(Date.now() + 60_000) });
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const summary = await checkoutApi(running, checkout, 'session');
  t.like(summary.body.session, { status: 'failed', failure_reason: 'offer_unavailable' });
  t.is(summary.body.offer, null);
});

test('an expired session: the page reads it as expired, and every step is 410 checkout_session_expired', async (t) => {
  const checkout = await open();
  const { traveler, cardId } = await readyToPay(checkout);
  await running.service.db.knex('checkout_sessions').where({ id: checkout.id }).update({ expires_at: new Date(Date.now() - 1000) });
  t.is((await checkoutApi(running, checkout, 'session')).body.session.status, 'expired');
  const choices = choicesOf(checkout.order, cardId);
  for (const [path, body] of [
    ['pay', { ...choices, expected_total: { amount: checkout.order.amount, currency: 'GBP' } }],
    ['review', choices],
    ['sign-in', { email: uniqueEmail('late') }],
    ['card-session', {}],
  ] as const) {
    const refused = await checkoutApi(running, checkout, path, { body, traveler });
    t.is(refused.status, 410, path);
    t.is(refused.body.code, 'checkout_session_expired', path);
  }
  t.is((await bookingsOfSession(running, checkout.id)).length, 0);
});

test('a new passenger is saved on request, with their passport, and offered first next time', async (t) => {
  const checkout = await open();
  const { traveler } = await readyToPay(checkout);
  const saved = await checkoutApi(running, checkout, 'passengers', {
    body: { first_name: 'Ada', last_name: 'Lovelace', born_on: '1985-12-10', gender: 'female', passport: { number: '533401372', issuing_country_code: 'GB', expires_on: '2034-05-01' } },
    traveler,
  });
  t.is(saved.status, 201, JSON.stringify(saved.body));
  t.like(saved.body, { first_name: 'Ada', traveler_type: 'adult', passport: { number_ending: '372', issuing_country_code: 'GB', expires_on: '2034-05-01' } });
  const listed = await checkoutApi(running, checkout, 'passengers', { traveler });
  t.deepEqual(listed.body.map((passenger: { id: string }) => passenger.id), [saved.body.id]);
  t.false(JSON.stringify(listed.body).includes('533401372'), 'the passport number is never shown whole');
  const invalid = await checkoutApi(running, checkout, 'passengers', { body: { first_name: 'A1', last_name: 'Lovelace', born_on: '1985-12-10', gender: 'female' }, traveler });
  t.is(invalid.status, 400);
  t.truthy(invalid.body.fields.first_name);
});

test('the card vault’s fields nested in the checkout frame for the checkout’s origin, inside the session’s page only', async (t) => {
  const checkout = await open();
  const email = uniqueEmail('vault');
  const traveler = await signInToCheckout(running, checkout, email);
  const session = await checkoutApi(running, checkout, 'card-session', { method: 'POST', traveler });
  t.is(session.status, 200);
  t.is(session.body.vault_url, running.config.vault?.url);
  const fields = await fetch(`${session.body.vault_url}/elements/card?session_key=${encodeURIComponent(session.body.session_key)}`);
  t.is(fields.status, 200);
  const authOrigin = new URL(running.config.authUrl).origin;
  t.regex(fields.headers.get('content-security-policy') ?? '', new RegExp(`frame-ancestors ${authOrigin.replaceAll('.', '\\.')} ${PAGE.replaceAll('.', '\\.')}(;|$)`));
  t.true((await fields.text()).includes(`data-parent-origin="${authOrigin}"`), 'its messages go to the checkout, not to the partner’s page');
});

test('provider_a, which requires pricing: priced as the checkout opens (its steps known from the start), priced again at the review, booked at the review’s total', async (t) => {
  const { order } = await partnerOffer(running, partner, 'provider_a');
  const raw = structuredClone(order.raw) as { itineraries: { segments: { number: string }[] }[] };
  raw.itineraries[0]!.segments[0]!.number = '9901';
  const offer = await partnerOffer(running, partner, 'provider_a', 'normal', raw);
  const checkout = await openCheckout(running, partner, 'provider_a', PAGE, 'normal', offer);
  const opened = await checkoutApi(running, checkout, 'session');
  t.like(opened.body.steps, { pricing: true, documents: true });
  t.not(opened.body.offer.total_amount, order.offer.total_amount, 'priced (12% more on the fare) before the traveler saw it');
  const { traveler, cardId } = await readyToPay(checkout);
  const choices = choicesOf(checkout.order, cardId, { extras: false });
  const reviewed = await review(checkout, traveler, choices);
  t.is(reviewed.status, 200, JSON.stringify(reviewed.body));
  t.true(reviewed.body.priced);
  const paid = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: reviewed.body.total_amount, currency: reviewed.body.currency } }, traveler });
  t.is(paid.status, 200, JSON.stringify(paid.body));
  t.is(paid.body.total_amount, reviewed.body.total_amount);
  const [booking] = await bookingsOfSession(running, checkout.id);
  t.is(BigInt((await intentRecord(running, booking.payment_intent_id)).amount_received), toMinorUnits(reviewed.body.total_amount, reviewed.body.currency));
});

for (const providerId of ['provider_c', 'provider_d']) {
  test(`${providerId}: a held order whose price moved is paid at its new total once the traveler accepts it, with no second order`, async (t) => {
    const checkout = await openCheckout(running, partner, providerId, PAGE, 'priceChangedAtBooking');
    const { traveler, cardId } = await readyToPay(checkout);
    const choices = choicesOf(checkout.order, cardId, { extras: false });
    const first = await review(checkout, traveler, choices);
    t.is(first.status, 200, JSON.stringify(first.body));
    const changed = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: first.body.total_amount, currency: first.body.currency } }, traveler });
    t.is(changed.status, 409, JSON.stringify(changed.body));
    t.is(changed.body.code, 'price_changed');
    t.truthy(changed.body.order_id);
    const again = await review(checkout, traveler, choices);
    t.like(again.body, { total_amount: changed.body.new_total_amount, previous_total_amount: changed.body.previous_total_amount });
    const paid = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: again.body.total_amount, currency: again.body.currency } }, traveler });
    t.is(paid.status, 200, JSON.stringify(paid.body));
    t.like(paid.body, { status: 'confirmed', total_amount: changed.body.new_total_amount });
    const bookings = await bookingsOfSession(running, checkout.id);
    t.is(bookings.length, 1, 'the held order’s booking, retried: no second booking');
    t.like(bookings[0], { status: 'confirmed', retried_order_id: changed.body.order_id });
    t.is(BigInt((await intentRecord(running, bookings[0].payment_intent_id)).amount_received), toMinorUnits(changed.body.new_total_amount, again.body.currency));
  });
}
