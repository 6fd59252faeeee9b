/**
 * The sandbox of provider_d, speaking its own dialect (modelled on Kiwi.com Tequila): an `apikey`
 * header, query dates dd/mm/YYYY, money as floats, `local_*` times with a fake `Z`, errors as `{error}`.
 * Served under `/sandbox/flights/provider_d` in sandbox mode:
 *
 *   GET  /v2/search?fly_from&fly_to&date_from[&date_to][&return_from][&adults&children&infants][&curr][&selected_cabins]
 *   GET  /v2/booking/check_flights?booking_token&bnum&adults&children&infants&currency[&session_id]
 *        the first call answers `flights_checked: false` and a session id; calling again with it checks
 *   POST /v2/booking/save_booking   {booking_token, session_id, passengers:[…], baggage:[…]}: the hold
 *   POST /v2/booking/confirm_payment {booking_id, transaction_id}: within 30 minutes of the hold
 *   GET  /v2/booking/{booking_id}, POST /v2/booking/{booking_id}/cancel   (invented: not public)
 *
 * The booking token carries what was searched (routes, dates, passengers, currency, when), so search
 * and check need no memory and any instance answers; a token over 30 minutes old has expired. Held
 * bookings are kept in memory, which is enough for a sandbox (they go with the process). Magic
 * destinations steer the failure paths (catalogue.ts; the README lists them).
 */
import crypto from 'node:crypto';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import { MAGIC_DESTINATIONS, MAGIC_INVALID_SURNAME, optionsOf, RATES } from './catalogue.js';
import { addDays, bagPriceEur, baggage, CABIN_FACTORS, convert, fareEur, round, searchItem, segmentsOf, totalEur, type Cabin, type Token } from './itineraries.js';
import type { FlightSandboxDeps } from '../sandbox-orders.js';

export const SANDBOX_KEY_PREFIX = 'kiwi_test_';
const TOKEN_LIFETIME_MS = 30 * 60 * 1000;
interface Held {
  booking_id: number;
  transaction_id: string;
  status: 'CONFIRMATION_PENDING' | 'CONFIRMED' | 'CANCELLED';
  heldAt: number;
  total: number;
  currency: string;
  pnr: string | null;
  passengers: { pk: number; bid: number; name: string; surname: string; category: string }[];
}

export function providerDSandbox({ clock }: FlightSandboxDeps): Router {
  const router = new Router({ prefix: '/sandbox/flights/provider_d' });
  const held = new Map<number, Held>();
  let nextBookingId = 7_000_001;
  const body = koaBody({ json: true, jsonLimit: '256kb', urlencoded: false, text: false, multipart: false });

  router.use(authenticate);

  router.get('/v2/search', (ctx) => {
    const query = ctx.query as Record<string, string | undefined>;
    const from = query.fly_from?.toUpperCase() ?? '';
    const to = query.fly_to?.toUpperCase() ?? '';
    const departure = parseDate(query.date_from);
    const lastDeparture = query.date_to ? parseDate(query.date_to) : departure;
    const returning = query.return_from ? parseDate(query.return_from) : null;
    const counts = { adults: int(query.adults, 1), children: int(query.children, 0), infants: int(query.infants, 0) };
    const currency = (query.curr ?? 'EUR').toUpperCase();
    const cabin = (query.selected_cabins ?? 'M').toUpperCase() as Cabin;
    const problem =
      (!/^[A-Z]{3}$/.test(from) || !/^[A-Z]{3}$/.test(to) ? 'fly_from and fly_to must be IATA airport codes' : null) ??
      (!departure || !lastDeparture ? 'date_from and date_to must be dates as dd/mm/YYYY' : null) ??
      (query.return_from && !returning ? 'return_from must be a date as dd/mm/YYYY' : null) ??
      (departure && lastDeparture && (lastDeparture < departure || days(departure, lastDeparture) > 6) ? 'date_to must be within a week after date_from' : null) ??
      (returning && departure && returning < departure ? 'return_from must not be before date_from' : null) ??
      (Object.values(counts).some((count) => Number.isNaN(count) || count < 0) ? 'adults, children and infants must be whole numbers' : null) ??
      (counts.adults < 1 || counts.adults + counts.children > 9 ? 'between 1 and 9 seated passengers, at least one adult' : null) ??
      (counts.infants > counts.adults ? 'at most one infant per adult' : null) ??
      (!(currency in RATES) ? `curr must be one of ${Object.keys(RATES).join(', ')}` : null) ??
      (!(cabin in CABIN_FACTORS) ? 'selected_cabins must be M, W, C or F' : null);
    if (problem) return answerError(ctx, 400, problem);

    const searchedAt = clock.now().getTime();
    const items: Record<string, unknown>[] = [];
    for (let day = 0; departure && lastDeparture && day <= days(departure, lastDeparture); day++) {
      const date = addDays(departure as string, day);
      optionsOf(from, to).forEach((_, option) => {
        const outbound = { route: `${from}-${to}`, option, date };
        const back = returning ? optionsOf(to, from).map((__, returnOption) => ({ route: `${to}-${from}`, option: returnOption, date: returning })) : [null];
        for (const inbound of back) {
          if (returning && !inbound) continue;
          items.push(searchItem({ legs: inbound ? [outbound, inbound] : [outbound], ...counts, currency, cabin, searchedAt }));
        }
      });
    }
    const limit = Math.min(int(query.limit, 20) || 20, 200);
    ctx.body = {
      search_id: crypto.randomUUID(),
      currency,
      fx_rate: RATES[currency],
      data: items.sort((a, b) => (a.price as number) - (b.price as number)).slice(0, limit),
      search_params: { flyFrom_type: 'airport', to_type: 'airport', seats: { passengers: counts.adults + counts.children + counts.infants, ...counts } },
      _results: items.length,
    };
  });

  router.get('/v2/booking/check_flights', (ctx) => {
    const query = ctx.query as Record<string, string | undefined>;
    const token = readToken(query.booking_token);
    if (!token) return answerError(ctx, 400, 'booking_token is not valid');
    if (expired(token, clock) || destination(token) === MAGIC_DESTINATIONS.expired) return answerError(ctx, 400, 'Expired booking token');
    if (destination(token) === MAGIC_DESTINATIONS.error) return answerError(ctx, 500, 'Internal server error');
    const currency = (query.currency ?? token.currency).toUpperCase();
    if (!(currency in RATES)) return answerError(ctx, 400, `currency must be one of ${Object.keys(RATES).join(', ')}`);
    const counts = { adults: int(query.adults, token.adults), children: int(query.children, token.children), infants: int(query.infants, token.infants) };
    if (counts.adults !== token.adults || counts.children !== token.children || counts.infants !== token.infants) {
      return answerError(ctx, 400, 'adults, children and infants must be those of the search');
    }
    const session = sessionOf(query.booking_token as string);
    // The first call starts the check; the answer comes on a later call with its session id.
    const checked = query.session_id === session && destination(token) !== MAGIC_DESTINATIONS.slow;
    const origEur = totalEur(token);
    const nowEur = destination(token) === MAGIC_DESTINATIONS.priceChange ? round(origEur * 1.08, 2) : origEur;
    const soldOut = destination(token) === MAGIC_DESTINATIONS.soldOut;
    ctx.body = {
      server_time: Math.floor(clock.now().getTime() / 1000),
      session_id: session,
      flights_checked: checked,
      flights_invalid: checked && soldOut,
      price_change: checked && nowEur !== origEur,
      total: nowEur,
      orig_price: origEur,
      conversion: { currency, amount: convert(nowEur, currency) },
      one_passenger: convert(fareEur(token, 'adult'), currency),
      max_passengers: 9,
      document_options: { document_need: 2 },
      baggage: baggage(currency, token),
      flights: segmentsOf(token).map((segment) => ({ ...segment, forced_priority_boarding: false, invalid: checked && soldOut })),
    };
  });

  router.post('/v2/booking/save_booking', body, (ctx) => {
    const request = (ctx.request.body ?? {}) as {
      booking_token?: string;
      session_id?: string;
      passengers?: Record<string, unknown>[];
      baggage?: { combination?: { indices?: number[]; category?: string }; passengers?: number[] }[];
    };
    const token = readToken(request.booking_token);
    if (!token) return answerError(ctx, 400, 'booking_token is not valid');
    if (expired(token, clock)) return answerError(ctx, 400, 'Expired booking token');
    if (request.session_id !== sessionOf(request.booking_token as string)) return answerError(ctx, 400, 'session_id is not the one check_flights gave');
    const passengers = request.passengers ?? [];
    const expected = token.adults + token.children + token.infants;
    if (passengers.length !== expected) return answerError(ctx, 422, `passengers: ${expected} expected, as searched`);
    const invalid = passengers.map((passenger, index) => passengerProblem(passenger, index)).find((problem) => problem !== null);
    if (invalid) return answerError(ctx, 422, invalid);
    let bagsEur = 0;
    for (const bag of request.baggage ?? []) {
      if (bag.combination?.category !== 'hold_bag' && bag.combination?.category !== 'hand_bag') return answerError(ctx, 422, 'baggage: unknown combination');
      if (bag.combination.category === 'hold_bag') bagsEur += bagPriceEur(bag.combination.indices?.length ?? 0) * (bag.passengers?.length ?? 0);
    }
    const base = totalEur(token) + bagsEur;
    const total = destination(token) === MAGIC_DESTINATIONS.priceChangeAtBooking ? round(base * 1.08, 2) : round(base, 2);
    const booking: Held = {
      booking_id: nextBookingId++,
      transaction_id: crypto.randomUUID(),
      status: 'CONFIRMATION_PENDING',
      heldAt: clock.now().getTime(),
      total,
      currency: 'EUR',
      pnr: null,
      passengers: passengers.map((passenger, index) => ({
        pk: index + 1,
        bid: 0,
        name: String(passenger.name),
        surname: String(passenger.surname),
        category: String(passenger.category),
      })),
    };
    booking.passengers.forEach((passenger) => (passenger.bid = booking.booking_id));
    held.set(booking.booking_id, booking);
    ctx.body = {
      booking_id: booking.booking_id,
      transaction_id: booking.transaction_id,
      status: 'CONFIRMATION_PENDING',
      price_change: total !== round(base, 2),
      flights_invalid: false,
      total,
      passengers: booking.passengers,
    };
  });

  router.post('/v2/booking/confirm_payment', body, (ctx) => {
    const request = (ctx.request.body ?? {}) as { booking_id?: number; transaction_id?: string };
    const booking = held.get(Number(request.booking_id));
    if (!booking || booking.transaction_id !== request.transaction_id) return answerError(ctx, 404, 'booking not found');
    if (booking.status === 'CONFIRMATION_PENDING' && clock.now().getTime() - booking.heldAt > TOKEN_LIFETIME_MS) {
      booking.status = 'CANCELLED';
      ctx.body = { status: -1, msg: 'confirm payment timeout' };
      return;
    }
    if (booking.status === 'CANCELLED') return answerError(ctx, 409, 'booking is cancelled');
    booking.status = 'CONFIRMED';
    booking.pnr ??= pnrOf(booking.booking_id);
    ctx.body = { status: 0, msg: '' };
  });

  router.get('/v2/booking/:id', (ctx) => {
    const booking = held.get(Number(ctx.params.id));
    if (!booking) return answerError(ctx, 404, 'booking not found');
    const { heldAt: _heldAt, transaction_id: _transaction, ...visible } = booking;
    ctx.body = visible;
  });

  router.post('/v2/booking/:id/cancel', (ctx) => {
    const booking = held.get(Number(ctx.params.id));
    if (!booking) return answerError(ctx, 404, 'booking not found');
    booking.status = 'CANCELLED';
    ctx.body = { booking_id: booking.booking_id, status: 'CANCELLED' };
  });

  return router;
}

async function authenticate(ctx: Context, next: Next): Promise<void> {
  if (!ctx.get('apikey').startsWith(SANDBOX_KEY_PREFIX)) return answerError(ctx, 403, 'Invalid apikey');
  return next();
}

function answerError(ctx: Context, status: number, error: string): void {
  ctx.status = status;
  ctx.body = { status: 'Error', error };
}

function passengerProblem(passenger: Record<string, unknown>, index: number): string | null {
  const name = /^[\p{L}][\p{L} '-]*$/u;
  if (typeof passenger.name !== 'string' || !name.test(passenger.name)) return `passengers[${index}].name: letters only`;
  if (typeof passenger.surname !== 'string' || !name.test(passenger.surname) || passenger.surname.toUpperCase() === MAGIC_INVALID_SURNAME) {
    return `passengers[${index}].surname: not a valid surname`;
  }
  if (passenger.title !== 'Mr' && passenger.title !== 'Ms') return `passengers[${index}].title: must be Mr or Ms`;
  if (typeof passenger.birthday !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(passenger.birthday)) return `passengers[${index}].birthday: YYYY-MM-DD`;
  if (!['adult', 'child', 'infant'].includes(String(passenger.category))) return `passengers[${index}].category: adult, child or infant`;
  if (index === 0 && (typeof passenger.email !== 'string' || !passenger.email.includes('@'))) return 'passengers[0].email: an e-mail address';
  return null;
}

function readToken(value: string | undefined): Token | undefined {
  try {
    const token = JSON.parse(Buffer.from(value ?? '', 'base64url').toString('utf8')) as Token;
    const known = token.legs.every((leg) => {
      const [from, to] = leg.route.split('-') as [string, string];
      return optionsOf(from, to)[leg.option] !== undefined;
    });
    return known && token.currency in RATES ? token : undefined;
  } catch {
    return undefined;
  }
}

function sessionOf(bookingToken: string): string {
  return crypto.createHash('sha256').update(bookingToken).digest('hex').slice(0, 32);
}

function expired(token: Token, clock: { now(): Date }): boolean {
  return clock.now().getTime() - token.searchedAt > TOKEN_LIFETIME_MS;
}

function destination(token: Token): string {
  return token.legs[0]?.route.split('-')[1] ?? '';
}

function pnrOf(bookingId: number): string {
  return crypto.createHash('sha1').update(String(bookingId)).digest('hex').slice(0, 6).toUpperCase();
}

/** dd/mm/YYYY → YYYY-MM-DD, or undefined when it is no date. */
function parseDate(value: string | undefined): string | undefined {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value ?? '');
  if (!match) return undefined;
  const iso = `${match[3]}-${match[2]}-${match[1]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : undefined;
}

function days(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

function int(value: string | undefined, fallback: number): number {
  return value === undefined || value === '' ? fallback : /^\d+$/.test(value) ? Number(value) : Number.NaN;
}
