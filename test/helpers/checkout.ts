/**
 * The hosted checkout from the outside: a partner's offer of a provider made over REST, a checkout session
 * for it with the partner's secret key, and the checkout page's JSON API called as its script calls it
 * (the client secret, and the traveler token once signed in with the e-mailed code).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { OrderRequest } from '../../core/flights/flight-provider.js';
import type { BookingPath } from '../booking-contract/case.js';
import { latestCode } from './browser.js';
import { BOOKING_CASES } from './bookings.js';
import { jsonOf, type Json } from './http.js';
import type { RunningService } from './service.js';

export interface CheckoutPartner {
  apiKey: string;
  partnerId: string;
}

export interface OpenedCheckout {
  id: string;
  url: string;
  clientSecret: string;
  offerId: string;
  order: OrderRequest;
}

/** A partner on a plan roomy enough that the rate limit never answers a test. */
export async function checkoutPartner(running: RunningService, name = 'Checkout Air'): Promise<CheckoutPartner> {
  await running.service.partners.setPlan({ id: 'hosted-checkout-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  const created = await running.service.partners.createPartner({ name: `${name} ${randomUUID().slice(0, 8)}`, plan_id: 'hosted-checkout-tests' });
  return { apiKey: created.api_key, partnerId: created.partner_id };
}

/** The provider's native offer for `path` (its booking-contract case), made our offer by the partner. */
export async function partnerOffer(running: RunningService, partner: CheckoutPartner, providerId: string, path: BookingPath = 'normal', raw?: Json): Promise<{ offerId: string; order: OrderRequest }> {
  const order = await BOOKING_CASES[providerId]!.request(running, path, randomUUID(), 'instant');
  const response = await fetch(`${running.url}/v1/flights/providers/${providerId}/offers`, {
    method: 'POST',
    headers: { 'x-api-key': partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(raw ?? order.raw),
  });
  const body = await jsonOf(response);
  assert.equal(response.status, 201, `no offer: ${response.status} ${JSON.stringify(body)}`);
  return { offerId: body.offer_id, order };
}

/** A checkout session of the partner's offer for pages of `origin`. */
export async function openCheckout(running: RunningService, partner: CheckoutPartner, providerId: string, origin: string, path: BookingPath = 'normal', offer?: { offerId: string; order: OrderRequest }): Promise<OpenedCheckout> {
  const { offerId, order } = offer ?? (await partnerOffer(running, partner, providerId, path));
  const response = await fetch(`${running.url}/v1/checkout/sessions`, {
    method: 'POST',
    headers: { 'x-api-key': partner.apiKey, 'x-customer-id': 'TP', 'content-type': 'application/json' },
    body: JSON.stringify({ provider_id: providerId, offer_id: offerId, origin }),
  });
  const body = await jsonOf(response);
  assert.equal(response.status, 201, `no session: ${response.status} ${JSON.stringify(body)}`);
  return { id: body.id, url: body.url, clientSecret: body.client_secret, offerId, order };
}

export interface CheckoutCaller {
  secret?: string;
  traveler?: string;
}

/** A call of the checkout page's JSON API. */
export async function checkoutApi(running: RunningService, checkout: Pick<OpenedCheckout, 'id' | 'clientSecret'>, path: string, init: { method?: string; body?: unknown; traveler?: string; secret?: string | null } = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (init.secret !== null) headers['x-checkout-secret'] = init.secret ?? checkout.clientSecret;
  if (init.traveler) headers['x-checkout-traveler'] = init.traveler;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${running.config.authUrl}/checkout/${checkout.id}/api/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: response.status === 204 ? {} : await jsonOf(response), headers: response.headers };
}

/** Signs `email` in inside the checkout with the code from the mail sandbox; the traveler token. */
export async function signInToCheckout(running: RunningService, checkout: OpenedCheckout, email: string): Promise<string> {
  const sent = await checkoutApi(running, checkout, 'sign-in', { body: { email } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const code = await latestCode(running.url, email);
  const signedIn = await checkoutApi(running, checkout, 'sign-in/code', { body: { code } });
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  return signedIn.body.traveler_token;
}

/** A card typed into the vault's fields (here, posted to the vault as its fields post it) and saved; its id. */
export async function checkoutCard(running: RunningService, checkout: OpenedCheckout, traveler: string, number = '4242424242424242'): Promise<string> {
  const session = await checkoutApi(running, checkout, 'card-session', { method: 'POST', traveler });
  assert.equal(session.status, 200, JSON.stringify(session.body));
  const token = await fetch(`${session.body.vault_url}/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'BT-API-KEY': session.body.session_key },
    body: JSON.stringify({ type: 'card', data: { number, expiration_month: 12, expiration_year: 2034, cvc: '123' } }),
  });
  const tokenBody = await jsonOf(token);
  assert.equal(token.status, 201, JSON.stringify(tokenBody));
  const saved = await checkoutApi(running, checkout, 'cards', { body: { vault_token: tokenBody.id }, traveler });
  assert.equal(saved.status, 201, JSON.stringify(saved.body));
  return saved.body.id;
}

/** The choices of the booking-contract order: its passengers (with passports), seats and bags. */
export function choicesOf(order: OrderRequest, paymentMethodId?: string, options: { extras?: boolean; lastName?: string } = {}): Json {
  const extras = options.extras ?? true;
  return {
    passengers: order.passengers.map((passenger, index) => ({
      provider_passenger_id: passenger.providerPassengerId,
      first_name: passenger.firstName,
      last_name: index === 0 && options.lastName ? options.lastName : passenger.lastName,
      born_on: passenger.bornOn,
      gender: passenger.gender ?? 'female',
      ...(passenger.identityDocuments[0]
        ? {
            passport: {
              number: passenger.identityDocuments[0].uniqueIdentifier,
              issuing_country_code: passenger.identityDocuments[0].issuingCountryCode,
              expires_on: passenger.identityDocuments[0].expiresOn,
            },
          }
        : {}),
    })),
    phone_number: '+442080160508',
    seats: extras ? order.seats.map((seat) => ({ segment_id: seat.segmentId, passenger_id: seat.providerPassengerId, seat_number: seat.seatNumber })) : [],
    bags: extras ? order.services : [],
    ...(paymentMethodId ? { payment_method_id: paymentMethodId } : {}),
  };
}

/** Bookings made through one checkout session. */
export async function bookingsOfSession(running: RunningService, sessionId: string): Promise<Json[]> {
  return running.service.db.knex('bookings').whereRaw("metadata->>'checkout_session_id' = ?", [sessionId]).orderBy('created_at');
}
