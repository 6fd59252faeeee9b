/**
 * The sandbox of provider_b, speaking its own dialect (modelled on Duffel v2): bearer token and
 * `Duffel-Version: v2`, bodies wrapped in `{data}`, errors as `{errors:[{type, code, title, message}],
 * meta}`. Served under `/sandbox/flights/provider_b` in sandbox mode:
 *
 *   GET  /air/offers/{id}                 the offer (a fixture), valid for 30 minutes from now
 *   POST /air/offers/{id}/actions/price   the offer as priced now
 *   GET  /air/seat_maps?offer_id={id}     one seat map per segment (A320 3-3; 777 3-4-3 with business 1-2-1)
 *   PATCH /air/offers/{id}/passengers/{pas_id}   a passenger's name and loyalty accounts
 *   POST /air/orders                      `{type, selected_offers, passengers, payments}`: an order
 *
 * Deterministic apart from the offer's timestamps. Magic offer ids (the LHR–JFK fixture under another
 * id) steer the failure paths; the README lists them.
 */
import Router from '@koa/router';
import { nativeFixtures } from '../sandbox-fixtures.js';
import { answerSlowly } from '../sandbox-timing.js';
import { koaBody } from 'koa-body';
import type { Context, Next } from 'koa';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import { cabinsOf, seatState, type CabinLayout } from '../sandbox-cabins.js';
import type { FlightSandboxDeps } from '../sandbox-orders.js';

export const MAGIC_OFFERS = {
  /** Pricing answers a higher total. */
  priceChange: 'off_0000SANDBOXPRICECHANGE',
  /** Pricing answers 422 offer_no_longer_available: sold out. */
  soldOut: 'off_0000SANDBOXSOLDOUT',
  /** The offer expired a minute ago. */
  expired: 'off_0000SANDBOXEXPIRED',
  /** Pricing and seat maps answer after 12 s: past every timeout of provider_b. */
  slow: 'off_0000SANDBOXSLOW',
  /** Pricing and seat maps answer 500. */
  error: 'off_0000SANDBOXERROR',
  /** Priced fine; the order answers 422 price_changed (the total went up since). */
  priceChangeAtBooking: 'off_0000SANDBOXBOOKINGPRICE',
} as const;

export const SANDBOX_TOKEN_PREFIX = 'duffel_test_';
const SLOW_ANSWER_MS = 12_000;
const OFFER_LIFETIME_MS = 30 * 60 * 1000;

type NativeOffer = Record<string, unknown> & {
  id: string;
  total_amount: string;
  total_currency: string;
  base_amount?: string | null;
  passengers: { id: string }[];
  slices: { id: string; segments: { id: string; aircraft?: { iata_code: string } | null }[] }[];
};

function loadCatalogue(): Map<string, NativeOffer> {
  const offers = nativeFixtures<NativeOffer>(new URL('./fixtures/', import.meta.url));
  const catalogue = new Map(offers.map((offer) => [offer.id, offer]));
  const template = offers.find((offer) => offer.total_currency === 'GBP' && offer.slices.length > 0) as NativeOffer;
  for (const id of Object.values(MAGIC_OFFERS)) catalogue.set(id, { ...structuredClone(template), id });
  return catalogue;
}

export function providerBSandbox({ clock }: FlightSandboxDeps): Router {
  const catalogue = loadCatalogue();
  const router = new Router({ prefix: '/sandbox/flights/provider_b' });

  const offerFor = (id: string): NativeOffer | undefined => {
    const fixture = catalogue.get(id);
    if (!fixture) return undefined;
    const now = clock.now();
    const expiresAt = id === MAGIC_OFFERS.expired ? new Date(now.getTime() - 60_000) : new Date(now.getTime() + OFFER_LIFETIME_MS);
    return { ...structuredClone(fixture), created_at: now.toISOString(), updated_at: now.toISOString(), expires_at: expiresAt.toISOString() };
  };

  router.use(authenticate);
  router.get('/air/offers/:id', (ctx) => {
    const offer = offerFor(ctx.params.id as string);
    if (!offer) return error(ctx, 404, 'invalid_request_error', 'not_found', 'Not found', 'The offer was not found.');
    ctx.body = { data: offer };
  });
  router.post('/air/offers/:id/actions/price', async (ctx) => {
    const id = ctx.params.id as string;
    const offer = offerFor(id);
    if (!offer) return error(ctx, 404, 'invalid_request_error', 'not_found', 'Not found', 'The offer was not found.');
    if (await steeredFailure(ctx, id)) return;
    if (id === MAGIC_OFFERS.soldOut || id === MAGIC_OFFERS.expired) {
      return error(ctx, 422, 'invalid_request_error', 'offer_no_longer_available', 'Offer no longer available', 'The offer is no longer available.');
    }
    if (id === MAGIC_OFFERS.priceChange) {
      // 7.5% more, on the base fare: the taxes stay as they were.
      const currency = offer.total_currency;
      const increase = (toMinorUnits(offer.total_amount, currency) * 75n) / 1000n;
      offer.total_amount = fromMinorUnits(toMinorUnits(offer.total_amount, currency) + increase, currency);
      if (offer.base_amount) offer.base_amount = fromMinorUnits(toMinorUnits(offer.base_amount, currency) + increase, currency);
    }
    ctx.body = { data: offer };
  });
  router.patch('/air/offers/:id/passengers/:passengerId', koaBody({ json: true, jsonLimit: '64kb', urlencoded: false, text: false, multipart: false }), (ctx) => {
    const offer = offerFor(ctx.params.id as string);
    const passenger = offer?.passengers.find((item) => item.id === ctx.params.passengerId);
    if (!offer || !passenger) return error(ctx, 404, 'invalid_request_error', 'not_found', 'Not found', 'The offer passenger was not found.');
    const data = ((ctx.request.body as { data?: Record<string, unknown> } | undefined)?.data ?? {}) as {
      given_name?: string;
      family_name?: string;
      loyalty_programme_accounts?: unknown[];
    };
    // Names are letters, spaces, hyphens and apostrophes, as airlines print them on tickets.
    const invalid = [data.given_name, data.family_name].find((name) => name !== undefined && !/^[\p{L}][\p{L} '-]*$/u.test(name));
    if (invalid !== undefined) {
      return error(ctx, 422, 'validation_error', 'invalid_passenger_name', 'Invalid passenger name', 'The passenger name contains invalid characters.');
    }
    ctx.body = {
      data: {
        ...passenger,
        given_name: data.given_name ?? null,
        family_name: data.family_name ?? null,
        loyalty_programme_accounts: data.loyalty_programme_accounts ?? [],
      },
    };
  });
  router.post('/air/orders', koaBody({ json: true, jsonLimit: '256kb', urlencoded: false, text: false, multipart: false }), async (ctx) => {
    const data = ((ctx.request.body as { data?: Record<string, unknown> } | undefined)?.data ?? {}) as {
      type?: string;
      selected_offers?: string[];
      passengers?: { id?: string; given_name?: string; family_name?: string }[];
      payments?: { amount?: string; currency?: string }[];
    };
    const id = data.selected_offers?.[0] ?? '';
    const offer = offerFor(id);
    if (!offer) return error(ctx, 404, 'invalid_request_error', 'not_found', 'Not found', 'The offer was not found.');
    if (await steeredFailure(ctx, id)) return;
    if (id === MAGIC_OFFERS.soldOut || id === MAGIC_OFFERS.expired) {
      return error(ctx, 422, 'invalid_request_error', 'offer_no_longer_available', 'Offer no longer available', 'The offer is no longer available.');
    }
    const passengers = data.passengers ?? [];
    const known = new Set(offer.passengers.map((passenger) => passenger.id));
    if (passengers.length !== known.size || passengers.some((passenger) => !known.has(passenger.id ?? ''))) {
      return error(ctx, 422, 'validation_error', 'invalid_passenger', 'Invalid passengers', "passengers[].id must be the offer's passenger ids.");
    }
    if (passengers.some((passenger) => ![passenger.given_name, passenger.family_name].every((name) => typeof name === 'string' && /^[\p{L}][\p{L} '-]*$/u.test(name)))) {
      return error(ctx, 422, 'validation_error', 'invalid_passenger_name', 'Invalid passenger name', 'The passenger name contains invalid characters.');
    }
    if (id === MAGIC_OFFERS.priceChangeAtBooking) {
      return error(ctx, 422, 'invalid_state_error', 'price_changed', 'Price changed', 'The price of the offer has changed: retrieve the offer again and retry with its new total.');
    }
    if (data.type !== 'hold' && data.payments?.[0]?.amount !== offer.total_amount) {
      return error(ctx, 422, 'validation_error', 'invalid_payment_amount', 'Invalid payment amount', 'payments[0].amount must equal the offer total.');
    }
    ctx.status = 201;
    ctx.body = {
      data: {
        id: `ord_${id.slice(4)}`,
        type: data.type ?? 'instant',
        booking_reference: id.slice(-6).toUpperCase(),
        total_amount: offer.total_amount,
        total_currency: offer.total_currency,
        passengers,
        payment_status: { awaiting_payment: data.type === 'hold', payment_required_by: data.type === 'hold' ? offer.expires_at : null, price_guarantee_expires_at: null },
        documents: data.type === 'hold' ? [] : [{ type: 'electronic_ticket', unique_identifier: `125${id.length}${id.slice(-7).replace(/\D/g, '0')}` }],
        available_actions: ['cancel'],
        cancelled_at: null,
      },
    };
  });
  router.get('/air/seat_maps', async (ctx) => {
    const id = String(ctx.query.offer_id ?? '');
    const offer = offerFor(id);
    if (!offer) return error(ctx, 404, 'invalid_request_error', 'not_found', 'Not found', 'The offer was not found.');
    if (await steeredFailure(ctx, id)) return;
    ctx.body = {
      data: offer.slices.flatMap((slice) =>
        slice.segments.map((segment) => seatMap(segment.id, slice.id, segment.aircraft?.iata_code ?? '320', offer)),
      ),
    };
  });
  return router;
}

async function authenticate(ctx: Context, next: Next): Promise<void> {
  const token = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
  if (!token?.startsWith(SANDBOX_TOKEN_PREFIX)) {
    return error(ctx, 401, 'authentication_error', 'invalid_authentication', 'Invalid authentication', 'The access token is missing or not valid.');
  }
  if (ctx.get('duffel-version') !== 'v2') {
    return error(ctx, 400, 'invalid_request_error', 'unsupported_version', 'Unsupported version', 'Send the Duffel-Version: v2 header.');
  }
  return next();
}

/** The slow and failing magic offers; true when the answer was given. */
async function steeredFailure(ctx: Context, id: string): Promise<boolean> {
  if (id === MAGIC_OFFERS.slow) {
    await answerSlowly(ctx, SLOW_ANSWER_MS);
  }
  if (id === MAGIC_OFFERS.error) {
    error(ctx, 500, 'api_error', 'internal_server_error', 'Internal server error', 'An unexpected error occurred.');
    return true;
  }
  return false;
}

function error(ctx: Context, status: number, type: string, code: string, title: string, message: string): void {
  ctx.status = status;
  ctx.body = {
    errors: [{ type, code, title, message, documentation_url: `https://sandbox.invalid/docs/errors#${code}` }],
    meta: { status, request_id: `sandbox-${code}` },
  };
}

/** A seat map in provider_b's shape, from the shared seat fixtures (sandbox-cabins.ts). */
function seatMap(segmentId: string, sliceId: string, aircraft: string, offer: NativeOffer) {
  const layouts = cabinsOf(aircraft);
  return {
    id: `sea_${segmentId.slice(4)}`,
    segment_id: segmentId,
    slice_id: sliceId,
    cabins: layouts.map((layout) => {
      const rows: { sections: { elements: Record<string, unknown>[] }[] }[] = [];
      let wingStart: number | null = null;
      let wingEnd: number | null = null;
      for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
        if (layout.exitRows.includes(row)) {
          rows.push({ sections: layout.sections.map((_, index) => ({ elements: index === 0 || index === layout.sections.length - 1 ? [{ type: 'exit_row' }] : [] })) });
        }
        if (layout.wingRows && row === layout.wingRows[0]) wingStart = rows.length;
        rows.push({
          sections: layout.sections.map((letters) => ({ elements: letters.map((letter) => seat(row, letter, layout, offer)) })),
        });
        if (layout.wingRows && row === layout.wingRows[1]) wingEnd = rows.length - 1;
      }
      return {
        deck: 0,
        cabin_class: layout.cabinClass,
        aisles: layout.sections.length - 1,
        wings: wingStart !== null && wingEnd !== null ? { first_row_index: wingStart, last_row_index: wingEnd } : null,
        rows,
      };
    }),
  };
}

function seat(row: number, letter: string, layout: CabinLayout, offer: NativeOffer): Record<string, unknown> {
  const state = seatState(row, letter, layout, offer.total_currency);
  if (state.status === 'blocked') return { type: 'seat', designator: state.designator, disclosures: ['restricted_seat_general'], available_services: [] };
  if (state.status === 'occupied') return { type: 'seat', designator: state.designator, disclosures: [], available_services: [] };
  const amount = toDecimalString(state.price, offer.total_currency);
  return {
    type: 'seat',
    designator: state.designator,
    disclosures: [],
    available_services: offer.passengers.map((passenger, index) => ({
      id: `ase_seat${state.designator}p${index}`,
      passenger_id: passenger.id,
      total_amount: amount,
      total_currency: offer.total_currency,
    })),
  };
}
