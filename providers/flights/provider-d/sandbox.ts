/**
 * The sandbox of provider_d, speaking its own dialect (modelled on Kiwi.com Tequila): an `apikey`
 * header, query dates dd/mm/YYYY, money as floats, `local_*` times with a fake `Z`, errors as `{error}`.
 * Served under `/sandbox/flights/provider_d` in sandbox mode:
 *
 *   GET  /v2/search?fly_from&fly_to&date_from[&date_to][&return_from][&adults&children&infants][&curr][&selected_cabins]
 *        any date from today on (flights that have left are not sold), times in the airports' real zones
 *   GET  /v2/booking/check_flights?booking_token&bnum&adults&children&infants&currency[&session_id]
 *        the first call answers `flights_checked: false` and a session id; calling again with it checks
 *   POST /v2/booking/save_booking   {booking_token, session_id, client_reference, passengers:[…], baggage:[…]}: the hold
 *   POST /v2/booking/confirm_payment {booking_id, transaction_id, amount, currency}: within 30 minutes of the hold
 *   GET  /v2/booking/{booking_id}, POST /v2/booking/{booking_id}/cancel   (invented: not public)
 *
 * The booking token carries what was searched (routes, dates, passengers, currency, when), so search
 * and check need no memory and any instance answers; a token over 30 minutes old has expired. Bookings
 * are kept in the database (sandbox-bookings.ts). Magic destinations steer the failure paths
 * (catalogue.ts; the README lists them).
 */
import crypto from 'node:crypto';
import Router from '@koa/router';
import { MAGIC_DESTINATIONS, optionsOf, RATES } from './catalogue.js';
import { addDays, baggage, CABIN_FACTORS, convert, fareEur, round, searchItem, segmentsOf, totalEur, type Cabin, type Token } from './itineraries.js';
import type { FlightSandboxDeps } from '../sandbox-orders.js';
import { bookingRoutes } from './sandbox-bookings.js';
import { answerError, authenticate, destinationOf as destination, readToken, sessionOf, tokenExpired as expired } from './sandbox-dialect.js';

export { SANDBOX_KEY_PREFIX } from './sandbox-dialect.js';

export function providerDSandbox(deps: FlightSandboxDeps): Router {
  const { clock } = deps;
  const router = new Router({ prefix: '/sandbox/flights/provider_d' });

  router.use(authenticate);

  router.get('/v2/search', (ctx) => {
    const query = ctx.query as Record<string, string | undefined>;
    const from = query.fly_from?.toUpperCase() ?? '';
    const to = query.fly_to?.toUpperCase() ?? '';
    const departure = parseDate(query.date_from);
    const lastDeparture = query.date_to ? parseDate(query.date_to) : departure;
    const returning = query.return_from ? parseDate(query.return_from) : null;
    const counts = { adults: int(query.adults, 1), children: int(query.children, 0), infants: int(query.infants, 0) };
    // Dates are local to the airport: "today" somewhere may still be yesterday in UTC (down to UTC−12).
    const earliest = new Date(clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const currency = (query.curr ?? 'EUR').toUpperCase();
    const cabin = (query.selected_cabins ?? 'M').toUpperCase() as Cabin;
    const problem =
      (!/^[A-Z]{3}$/.test(from) || !/^[A-Z]{3}$/.test(to) ? 'fly_from and fly_to must be IATA airport codes' : null) ??
      (!departure || !lastDeparture ? 'date_from and date_to must be dates as dd/mm/YYYY' : null) ??
      (query.return_from && !returning ? 'return_from must be a date as dd/mm/YYYY' : null) ??
      (departure && departure < earliest ? `date_from must not be in the past (from ${earliest.split('-').reverse().join('/')} on)` : null) ??
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
    // A flight that has already left (earlier today) is not sold.
    const leaves = (leg: Token['legs'][number]) => Date.parse(segmentsOf({ legs: [leg], ...counts, currency, cabin, searchedAt })[0]?.utc_departure ?? '');
    for (let day = 0; departure && lastDeparture && day <= days(departure, lastDeparture); day++) {
      const date = addDays(departure as string, day);
      optionsOf(from, to).forEach((_, option) => {
        const outbound = { route: `${from}-${to}`, option, date };
        if (leaves(outbound) <= searchedAt) return;
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
    // A flight that left since the search is no longer for sale.
    const departed = Date.parse(segmentsOf(token)[0]?.utc_departure ?? '') <= clock.now().getTime();
    const soldOut = destination(token) === MAGIC_DESTINATIONS.soldOut || departed;
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

  bookingRoutes(router, deps);
  return router;
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
