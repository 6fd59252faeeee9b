/**
 * The sandbox of provider_a, speaking its own dialect (modelled on Amadeus Self-Service): bearer token,
 * JSON bodies in `{data}`, errors as `{errors:[{status, code, title, detail, source?}]}` with numeric codes.
 * Served under `/sandbox/flights/provider_a` in sandbox mode:
 *
 *   GET  /v2/shopping/flight-offers?originLocationCode&destinationLocationCode[&departureDate]: its fixtures,
 *        dated by the calendar of the sandbox's clock (sandbox-offers.ts)
 *   POST /v1/shopping/flight-offers/pricing?include=bags,detailed-fare-rules
 *        (with `X-HTTP-Method-Override: GET`, body `{data:{type:"flight-offers-pricing", flightOffers:[offer]}}`)
 *   POST /v1/shopping/seatmaps   body `{data:[offer]}`: one seat map per segment
 *   the flight orders: create, retrieve, cancel and issue (sandbox-order-desk.ts)
 *
 * The offer is sent whole, so any offer can be priced (the sandbox keeps none); the first segment's flight
 * `number` and the travelers' last names steer the failure paths (magic-values.ts).
 */
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import { cabinsOf, seatState, type CabinLayout } from '../sandbox-cabins.js';
import type { FlightSandboxDeps } from '../sandbox-orders.js';
import { MAGIC_FLIGHT_NUMBERS } from './magic-values.js';
import { bagPrice, fareRules } from './sandbox-fares.js';
import { authorized, fail as error, steered } from './sandbox-http.js';
import { orderDesk } from './sandbox-order-desk.js';
import { additionalServicesOf, extrasOf, fareOf, sumOf, type Refusal } from './sandbox-order-checks.js';
import { OrderedOffer } from './sandbox-order-request.js';
import { flightOffersSearch } from './sandbox-offers.js';

export { MAGIC_FLIGHT_NUMBERS, MAGIC_INVALID_LAST_NAME, MAGIC_SOLD_OUT_LAST_NAME, SANDBOX_TOKEN_PREFIX } from './magic-values.js';
export { datedFixture } from './sandbox-offers.js';

const STALE_OFFER = 4926;
/** Past provider_a's 15 s pricing timeout. */
const SLOW_ANSWER_MS = 17_000;

interface Offer {
  price: { currency: string; total: string; base: string; grandTotal: string; additionalServices?: { amount: string; type: string }[] };
  itineraries: { segments: { id: string; number: string }[] }[];
  travelerPricings: { travelerId: string; travelerType: string; price: { total: string }; fareDetailsBySegment: { segmentId: string; fareBasis?: string; brandedFare?: string }[] }[];
}

export function providerASandbox(deps: FlightSandboxDeps): Router {
  const router = new Router({ prefix: '/sandbox/flights/provider_a' });
  const body = koaBody({ json: true, jsonLimit: '1mb', urlencoded: false, text: false, multipart: false });
  flightOffersSearch(router, deps.clock);

  router.post('/v1/shopping/seatmaps', body, async (ctx) => {
    if (!authorized(ctx)) return;
    const offer = (ctx.request.body as { data?: SeatOffer[] } | undefined)?.data?.[0];
    if (!offer?.itineraries?.[0]?.segments?.[0] || !offer.travelerPricings || !offer.price) {
      return error(ctx, 400, 32171, 'MANDATORY DATA MISSING', 'data[0] must be a flight-offer.');
    }
    if (await steered(ctx, offer.itineraries[0].segments[0].number, SLOW_ANSWER_MS)) return;
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
    if (await steered(ctx, flight, SLOW_ANSWER_MS)) return;
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
    const restated = withChosenExtras(priced);
    if (restated && 'code' in restated) return error(ctx, restated.status, restated.code, restated.title, restated.detail, restated.pointer);
    const segmentIds = priced.itineraries.flatMap((itinerary) => itinerary.segments.map((segment) => segment.id));
    const travelerIds = priced.travelerPricings.map((traveler) => traveler.travelerId);
    // A lap infant has no bag allowance of its own to buy more of (its order refuses bags for one).
    const bagTravelerIds = priced.travelerPricings.filter((traveler) => traveler.travelerType !== 'HELD_INFANT').map((traveler) => traveler.travelerId);
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
            price: { amount: bagPrice(1, currency), currencyCode: currency },
            bookableByItinerary: true,
            segmentIds,
            travelerIds: bagTravelerIds,
          },
          '2': {
            quantity: 2,
            name: 'CHECKED_BAG',
            price: { amount: bagPrice(2, currency), currencyCode: currency },
            bookableByItinerary: true,
            segmentIds,
            travelerIds: bagTravelerIds,
          },
        },
        'detailed-fare-rules': Object.fromEntries(
          segmentIds.map((segmentId) => [
            segmentId,
            {
              fareBasis: firstDetail?.fareBasis,
              segmentId,
              rules: fareRules(firstDetail?.brandedFare, currency),
            },
          ]),
        ),
      },
    };
  });
  orderDesk(router, deps);
  return router;
}

/**
 * The seats and bags already chosen on the offer's fare details, priced as its order will charge them: its
 * grandTotal is its fare (without the extras it listed) plus these, listed under `price.additionalServices`.
 * An offer that already says so is left as it was sent (its id is drawn from its content); a chosen extra not
 * on sale is 38034, as at the order.
 */
function withChosenExtras(priced: Offer): Refusal | undefined {
  const parsed = OrderedOffer.safeParse(priced);
  if (!parsed.success) return undefined;
  const extras = extrasOf(parsed.data);
  if ('code' in extras) return extras;
  const currency = priced.price.currency;
  const grandTotal = sumOf(currency, fareOf(parsed.data), extras.seats, extras.bags);
  if (toMinorUnits(grandTotal, currency) === toMinorUnits(priced.price.grandTotal, currency)) return undefined;
  const additionalServices = additionalServicesOf(extras, currency);
  const { additionalServices: _listed, ...price } = priced.price;
  priced.price = { ...price, grandTotal, ...(additionalServices.length > 0 ? { additionalServices } : {}) };
  return undefined;
}

type SeatOffer = Omit<Offer, 'itineraries'> & {
  id: string;
  itineraries: { segments: { id: string; number: string; carrierCode: string; aircraft?: { code: string } }[] }[];
};

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
