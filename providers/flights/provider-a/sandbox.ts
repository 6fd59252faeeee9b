/**
 * The sandbox of provider_a, speaking its own dialect (modelled on Amadeus Self-Service): bearer token,
 * JSON bodies in `{data}`, errors as `{errors:[{status, code, title, detail}]}` with numeric codes.
 * Served under `/sandbox/flights/provider_a` in sandbox mode:
 *
 *   POST /v1/shopping/flight-offers/pricing?include=bags,detailed-fare-rules
 *        (with `X-HTTP-Method-Override: GET`, body `{data:{type:"flight-offers-pricing", flightOffers:[offer]}}`)
 *   POST /v1/shopping/seatmaps   body `{data:[offer]}`: one seat map per segment
 *   POST /v1/booking/flight-orders   body `{data:{type:"flight-order", flightOffers:[priced], travelers}}`
 *
 * The offer is sent whole, so any offer can be priced; flight numbers steer the failure paths (the
 * first segment's `number`): 9901 price change, 9902 sold out, 9903 slow, 9904 system error (the last
 * two for seat maps too), 9905 stale offer, 9906 price change at the order; last name INVALID is refused.
 */
import Router from '@koa/router';
import { answerSlowly } from '../sandbox-timing.js';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import { cabinsOf, seatState, type CabinLayout } from '../sandbox-cabins.js';
import type { FlightSandboxDeps } from '../sandbox-orders.js';

export const MAGIC_FLIGHT_NUMBERS = {
  priceChange: '9901',
  soldOut: '9902',
  slow: '9903',
  systemError: '9904',
  /** A stale offer: 4926 INVALID DATA RECEIVED at pricing (its offers carry no expiry of their own). */
  expired: '9905',
  /** Priced fine; the order answers 37200 PRICE DISCREPANCY with the new grandTotal. */
  priceChangeAtBooking: '9906',
} as const;
/** A traveler last name the order refuses (477 INVALID FORMAT), like one that fails the airline's checks. */
export const MAGIC_INVALID_LAST_NAME = 'INVALID';
export const SANDBOX_TOKEN_PREFIX = 'amadeus_test_';
const STALE_OFFER = 4926;
/** Past provider_a's 15 s pricing timeout. */
const SLOW_ANSWER_MS = 17_000;

interface Offer {
  price: { currency: string; total: string; base: string; grandTotal: string };
  itineraries: { segments: { id: string; number: string }[] }[];
  travelerPricings: { travelerId: string; travelerType: string; price: { total: string }; fareDetailsBySegment: { segmentId: string; fareBasis?: string; brandedFare?: string }[] }[];
}

export function providerASandbox(_deps: FlightSandboxDeps): Router {
  const router = new Router({ prefix: '/sandbox/flights/provider_a' });
  const body = koaBody({ json: true, jsonLimit: '1mb', urlencoded: false, text: false, multipart: false });

  router.post('/v1/shopping/seatmaps', body, async (ctx) => {
    if (!authorized(ctx)) return;
    const offer = (ctx.request.body as { data?: SeatOffer[] } | undefined)?.data?.[0];
    if (!offer?.itineraries?.[0]?.segments?.[0] || !offer.travelerPricings || !offer.price) {
      return error(ctx, 400, 32171, 'MANDATORY DATA MISSING', 'data[0] must be a flight-offer.');
    }
    if (await steered(ctx, offer.itineraries[0].segments[0].number)) return;
    ctx.body = {
      data: offer.itineraries.flatMap((itinerary) =>
        itinerary.segments.map((segment) => ({
          type: 'seatmap',
          flightOfferId: offer.id,
          segmentId: segment.id,
          carrierCode: segment.carrierCode,
          number: segment.number,
          aircraft: segment.aircraft,
          decks: [{ deckType: 'MAIN', seats: cabinsOf(segment.aircraft?.code).flatMap((layout) => seats(layout, offer)) }],
        })),
      ),
    };
  });

  router.post('/v1/shopping/flight-offers/pricing', body, async (ctx) => {
    if (!authorized(ctx)) return;
    if (ctx.get('x-http-method-override') !== 'GET') {
      return error(ctx, 400, 477, 'INVALID FORMAT', 'Pricing is a GET: send the X-HTTP-Method-Override: GET header.');
    }
    const offer = (ctx.request.body as { data?: { flightOffers?: Offer[] } } | undefined)?.data?.flightOffers?.[0];
    if (!offer?.price || !offer.itineraries?.[0]?.segments?.[0] || !offer.travelerPricings) {
      return error(ctx, 400, 32171, 'MANDATORY DATA MISSING', 'data.flightOffers[0] must be a flight-offer.');
    }
    const flight = offer.itineraries[0].segments[0].number;
    if (await steered(ctx, flight)) return;
    if (flight === MAGIC_FLIGHT_NUMBERS.soldOut) return error(ctx, 400, 34651, 'SEGMENT SELL FAILURE', 'Could not sell segment 1.');
    if (flight === MAGIC_FLIGHT_NUMBERS.expired) return error(ctx, 400, STALE_OFFER, 'INVALID DATA RECEIVED', 'The flight offer is no longer valid.');

    const priced = structuredClone(offer);
    if (flight === MAGIC_FLIGHT_NUMBERS.priceChange) {
      // 12% more on the base fare: the taxes stay as they were.
      const currency = priced.price.currency;
      const increase = (toMinorUnits(priced.price.base, currency) * 12n) / 100n;
      for (const key of ['base', 'total', 'grandTotal'] as const) {
        priced.price[key] = fromMinorUnits(toMinorUnits(priced.price[key], currency) + increase, currency);
      }
    }
    const currency = priced.price.currency;
    const segmentIds = priced.itineraries.flatMap((itinerary) => itinerary.segments.map((segment) => segment.id));
    const travelerIds = priced.travelerPricings.map((traveler) => traveler.travelerId);
    const firstDetail = priced.travelerPricings[0]?.fareDetailsBySegment[0];
    const basic = firstDetail?.brandedFare === 'BASIC';
    ctx.body = {
      data: {
        type: 'flight-offers-pricing',
        flightOffers: [priced],
        bookingRequirements: {
          emailAddressRequired: true,
          mobilePhoneNumberRequired: true,
          // Documents for travel outside the Schengen area and the UK's common travel area.
          travelerRequirements: travelerIds.map((travelerId) => ({ travelerId, genderRequired: true, documentRequired: !basic, dateOfBirthRequired: true })),
        },
      },
      included: {
        bags: {
          '1': {
            quantity: 1,
            name: 'CHECKED_BAG',
            price: { amount: fromMinorUnits(toMinorUnits(currency === 'JPY' ? '4500' : '25', currency), currency), currencyCode: currency },
            bookableByItinerary: true,
            segmentIds,
            travelerIds,
          },
          '2': {
            quantity: 2,
            name: 'CHECKED_BAG',
            price: { amount: fromMinorUnits(toMinorUnits(currency === 'JPY' ? '8000' : '45', currency), currency), currencyCode: currency },
            bookableByItinerary: true,
            segmentIds,
            travelerIds,
          },
        },
        'detailed-fare-rules': Object.fromEntries(
          segmentIds.map((segmentId) => [
            segmentId,
            {
              fareBasis: firstDetail?.fareBasis,
              segmentId,
              rules: basic
                ? [{ category: 'REFUND', notApplicable: true }, { category: 'EXCHANGE', maxPenaltyAmount: currency === 'JPY' ? '9000' : '60.00' }]
                : [{ category: 'REFUND', maxPenaltyAmount: currency === 'JPY' ? '18000' : '100.00' }, { category: 'EXCHANGE', maxPenaltyAmount: '0' }],
            },
          ]),
        ),
      },
    };
  });
  router.post('/v1/booking/flight-orders', body, async (ctx) => {
    if (!authorized(ctx)) return;
    const order = (ctx.request.body as { data?: { flightOffers?: Offer[]; travelers?: Traveler[] } } | undefined)?.data;
    const offer = order?.flightOffers?.[0];
    if (!offer?.price || !offer.itineraries?.[0]?.segments?.[0] || !offer.travelerPricings || !order?.travelers) {
      return error(ctx, 400, 32171, 'MANDATORY DATA MISSING', 'data.flightOffers[0] and data.travelers are required.');
    }
    const flight = offer.itineraries[0].segments[0].number;
    if (await steered(ctx, flight)) return;
    if (flight === MAGIC_FLIGHT_NUMBERS.soldOut) return error(ctx, 400, 34651, 'SEGMENT SELL FAILURE', 'Could not sell segment 1.');
    if (flight === MAGIC_FLIGHT_NUMBERS.expired) return error(ctx, 400, STALE_OFFER, 'INVALID DATA RECEIVED', 'The flight offer is no longer valid.');
    const expected = offer.travelerPricings.map((traveler) => traveler.travelerId).sort();
    const given = order.travelers.map((traveler) => traveler.id).sort();
    if (JSON.stringify(expected) !== JSON.stringify(given)) {
      return error(ctx, 400, STALE_OFFER, 'INVALID DATA RECEIVED', 'travelers[].id must match travelerPricings[].travelerId.');
    }
    const nameProblem = order.travelers.findIndex((traveler) => !validName(traveler.name?.firstName) || !validName(traveler.name?.lastName) || traveler.name?.lastName === MAGIC_INVALID_LAST_NAME);
    if (nameProblem >= 0) return error(ctx, 400, 477, 'INVALID FORMAT', `travelers[${nameProblem}].name is not valid.`);
    if (flight === MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking) {
      const currency = offer.price.currency;
      const now = fromMinorUnits((toMinorUnits(offer.price.grandTotal, currency) * 108n) / 100n, currency);
      return error(ctx, 400, 37200, 'PRICE DISCREPANCY', `Current grandTotal price (${now}) is different from request one (${offer.price.grandTotal})`);
    }
    ctx.status = 201;
    ctx.body = {
      data: {
        type: 'flight-order',
        id: Buffer.from(`order:${offer.itineraries[0].segments[0].id}:${order.travelers.map((traveler) => traveler.name?.lastName).join(',')}`).toString('base64url'),
        associatedRecords: [{ reference: recordLocator(JSON.stringify(order.travelers)), creationDateTime: new Date().toISOString().slice(0, 19), originSystemCode: '1A', flightOfferId: '1' }],
        flightOffers: [offer],
        travelers: order.travelers,
        ticketingAgreement: { option: 'CONFIRM' },
      },
    };
  });
  return router;
}

type Traveler = { id: string; name?: { firstName?: string; lastName?: string } };

function validName(name: string | undefined): boolean {
  return typeof name === 'string' && /^[\p{L}][\p{L} '-]*$/u.test(name);
}

/** Six letters and digits from the order, as a PNR looks. */
function recordLocator(seed: string): string {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash.toString(36).toUpperCase().padStart(6, 'X').slice(-6);
}

type SeatOffer = Omit<Offer, 'itineraries'> & {
  id: string;
  itineraries: { segments: { id: string; number: string; carrierCode: string; aircraft?: { code: string } }[] }[];
};

function authorized(ctx: Context): boolean {
  if (ctx.get('authorization').startsWith(`Bearer ${SANDBOX_TOKEN_PREFIX}`)) return true;
  error(ctx, 401, 38192, 'Access token expired', 'The access token provided in the Authorization header is expired or not valid.');
  return false;
}

/** The slow and failing flight numbers; true when the answer was given. */
async function steered(ctx: Context, flight: string): Promise<boolean> {
  if (flight === MAGIC_FLIGHT_NUMBERS.slow) {
    await answerSlowly(ctx, SLOW_ANSWER_MS);
  }
  if (flight === MAGIC_FLIGHT_NUMBERS.systemError) {
    error(ctx, 500, 141, 'SYSTEM ERROR HAS OCCURRED', 'Please retry later.');
    return true;
  }
  return false;
}

/** The seats of one cabin in provider_a's shape, from the shared seat fixtures (sandbox-cabins.ts). */
function seats(layout: CabinLayout, offer: SeatOffer) {
  const currency = offer.price.currency;
  const result = [];
  for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
    for (const [x, letter] of layout.sections.flat().entries()) {
      const state = seatState(row, letter, layout, currency);
      const codes = [{ window: 'W', aisle: 'A', middle: '9' }[state.position], ...(state.exitRow ? ['E'] : []), ...(state.price > 0 ? ['CH'] : [])];
      result.push({
        cabin: layout.cabinClass.toUpperCase(),
        number: state.designator,
        characteristicsCodes: codes,
        travelerPricing: offer.travelerPricings.map((traveler) => ({
          travelerId: traveler.travelerId,
          seatAvailabilityStatus: state.status.toUpperCase(),
          ...(state.status === 'available' && state.price > 0 ? { price: { currency, total: toDecimalString(state.price, currency) } } : {}),
        })),
        coordinates: { x: row, y: x },
      });
    }
  }
  return result;
}

function error(ctx: Context, status: number, code: number, title: string, detail: string): void {
  ctx.status = status;
  ctx.body = { errors: [{ status, code, title, detail }] };
}
