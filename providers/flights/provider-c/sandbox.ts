/**
 * The sandbox of provider_c, speaking its own dialect (IATA NDC 21.3 rendered as JSON, money as
 * `{amount, curCode}`): bearer token `ndc_test_…`. As real NDC does, a business error is HTTP 200 with
 * `Errors:[{Code, DescText, TypeCode}]` (beside the order, when one exists); the system error is HTTP 500,
 * a bad token 401, a request it cannot read 400. Served under `/sandbox/flights/provider_c` in sandbox mode:
 *
 *   POST /OfferPrice        {PricedOffer}                          → {PricedOffer, Warning?:[711]}
 *   POST /SeatAvailability  {PricedOffer}                          → {ALaCarteOffer, SeatMap:[one per PaxSegment]}
 *   POST /OrderCreate       {PricedOffer, DataLists:{PaxList:[{PaxID, Individual:{GivenName, Surname, Birthdate?}}]}}
 *                                                                  → OrderViewRS {Order} (a hold: not paid)
 *   POST /OrderReshop       {Order:{OrderID}}                      → {Order, ReshopResults:{NoChangeInd:true} | {RepricedOffer:{TotalPrice}}}
 *   POST /OrderChange       {Order:{OrderID}, PaymentFunctions:{PaymentProcessingDetails:{Amount}}}
 *                                                                  → OrderViewRS with TicketDocInfo (paid and ticketed)
 *   POST /OrderRetrieve     {Order:{OrderID}}                      → OrderViewRS
 *
 * Real NDC names an offer by OfferRefID and the airline keeps it; this sandbox keeps no offers, so the
 * offer is sent whole (as wire.ts describes it) and any offer can be priced. It keeps its own
 * OfferExpirationTimeLimitDateTime; past it, every offer call answers 913. OrderChange pays exactly the
 * order's current total, or answers 727 with the OrderID; OrderReshop then tells the new total.
 * The first DatedMarketingSegment's flight number steers the failure paths (MAGIC_FLIGHT_NUMBERS); a
 * surname of MAGIC_SURNAME_INVALID is refused at OrderCreate. Codes 401, 400 and 404 are ours, not NDC's.
 */
import { randomBytes, randomInt } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import { z } from 'zod';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import { cabinsOf, seatState, type CabinLayout } from '../sandbox-cabins.js';
import { answerSlowly } from '../sandbox-timing.js';
import { WireOffer } from './wire.js';
import type { FlightSandboxDeps } from '../sandbox-orders.js';

export const MAGIC_FLIGHT_NUMBERS = {
  /** OfferPrice answers 7.5% more on every base fare (taxes unchanged) and warns 711; each pricing again adds as much. */
  priceChange: '9931',
  /** The held order reprices right after OrderCreate: OrderChange with the held total answers 727 with the OrderID. */
  priceChangeAtBooking: '9932',
  /** OfferPrice and OrderCreate answer 496 No available flights. */
  soldOut: '9933',
  /** Every offer call answers 913, whatever the offer's time limit says (the airline withdrew it early). */
  expired: '9934',
  /** OfferPrice, SeatAvailability and OrderCreate answer after 22 s: past provider_c's 20 s pricing timeout. */
  slow: '9935',
  /** OfferPrice, SeatAvailability and OrderCreate answer HTTP 500. */
  systemError: '9936',
  /** OfferPrice, SeatAvailability and OrderCreate answer HTTP 200 with Errors 911 (internal error). */
  internalError: '9937',
} as const;
/** A surname that OrderCreate refuses with 151, as it refuses names that are not letters. */
export const MAGIC_SURNAME_INVALID = 'INVALID';
export const SANDBOX_TOKEN_PREFIX = 'ndc_test_';
const SLOW_ANSWER_MS = 22_000;
/** When an offer states no payment time limit, a hold is kept this long. */
const HOLD_MS = 24 * 60 * 60 * 1000;

const POSITION_CODES = { window: 'W', aisle: 'A', middle: '9' } as const;
const STATUS_CODES = { available: 'F', occupied: 'O', blocked: 'Z' } as const;
const CABIN_TYPE_CODES: Record<CabinLayout['cabinClass'], string> = { first: '1', business: '2', premium_economy: '4', economy: '5' };

const OrderRef = z.looseObject({ Order: z.looseObject({ OrderID: z.string().min(1) }) });
const OrderCreateRequest = z.looseObject({
  PricedOffer: WireOffer,
  DataLists: z.looseObject({
    PaxList: z.array(
      z.looseObject({
        PaxID: z.string(),
        Individual: z.looseObject({ GivenName: z.string().optional(), Surname: z.string().optional(), Birthdate: z.string().optional() }).optional(),
      }),
    ),
  }),
});
const OrderChangeRequest = OrderRef.extend({
  PaymentFunctions: z.looseObject({
    PaymentProcessingDetails: z.looseObject({ Amount: z.looseObject({ amount: z.string().regex(/^\d+(\.\d+)?$/), curCode: z.string().regex(/^[A-Z]{3}$/) }) }),
  }),
});

type Ticket = { PaxRefID: string; TicketDocument: { TicketDocNbr: string; Type: string }[] };
interface HeldOrder {
  id: string;
  bookingId: string;
  paymentLimit: string;
  /** The offer as last told to the caller (at OrderCreate, then at OrderReshop). */
  quoted: WireOffer;
  /** The offer as the airline prices the order now. */
  current: WireOffer;
  tickets?: Ticket[];
}

export function providerCSandbox({ clock }: FlightSandboxDeps): Router {
  const router = new Router({ prefix: '/sandbox/flights/provider_c' });
  const body = koaBody({ json: true, jsonLimit: '1mb', urlencoded: false, text: false, multipart: false });
  // In memory: a sandbox's orders need not outlive the process.
  const orders = new Map<string, HeldOrder>();

  /** The offer named in the request, if it can still be sold; false when the answer was given. */
  const sellable = async (ctx: Context, offer: WireOffer): Promise<boolean> => {
    const flight = flightOf(offer);
    if (flight === MAGIC_FLIGHT_NUMBERS.slow) await answerSlowly(ctx, SLOW_ANSWER_MS);
    if (flight === MAGIC_FLIGHT_NUMBERS.systemError) return ndcError(ctx, '911', 'System error', 'Retry', 500);
    if (flight === MAGIC_FLIGHT_NUMBERS.internalError) return ndcError(ctx, '911', 'Internal error, please try again', 'Retry');
    if (flight === MAGIC_FLIGHT_NUMBERS.expired || new Date(offer.OfferExpirationTimeLimitDateTime) <= clock.now()) {
      return ndcError(ctx, '913', 'Invalid or Timed-out OfferRefID (Call again AirShoppingRQ)');
    }
    return true;
  };
  const orderOf = (ctx: Context): HeldOrder | undefined => {
    const id = parsed(ctx, OrderRef)?.Order.OrderID;
    if (id === undefined) return undefined;
    const order = orders.get(id);
    if (!order) ndcError(ctx, '404', 'Order not found');
    return order;
  };

  router.use(authenticate);
  router.post('/OfferPrice', body, async (ctx) => {
    const offer = parsed(ctx, z.looseObject({ PricedOffer: WireOffer }))?.PricedOffer;
    if (!offer || !(await sellable(ctx, offer))) return;
    const flight = flightOf(offer);
    if (flight === MAGIC_FLIGHT_NUMBERS.soldOut) return void ndcError(ctx, '496', 'No available flights', 'Unavailable');
    ctx.body =
      flight === MAGIC_FLIGHT_NUMBERS.priceChange
        ? { PricedOffer: repriced(offer), Warning: [{ Code: '711', DescText: 'Selected Offer Price changed' }] }
        : { PricedOffer: offer };
  });
  router.post('/SeatAvailability', body, async (ctx) => {
    const offer = parsed(ctx, z.looseObject({ PricedOffer: WireOffer }))?.PricedOffer;
    if (!offer || !(await sellable(ctx, offer))) return;
    ctx.body = seatAvailability(offer);
  });
  router.post('/OrderCreate', body, async (ctx) => {
    const request = parsed(ctx, OrderCreateRequest);
    if (!request || !(await sellable(ctx, request.PricedOffer))) return;
    const offer = request.PricedOffer;
    if (flightOf(offer) === MAGIC_FLIGHT_NUMBERS.soldOut) return void ndcError(ctx, '496', 'No available flights', 'Unavailable');
    const refusal = passengerRefusal(offer, request.DataLists.PaxList);
    if (refusal) return void ndcError(ctx, refusal.code, refusal.text);
    const bookingId = code(6);
    const limits = offer.OfferItem.map((item) => item.PaymentTimeLimitDateTime).filter((time) => time !== undefined).sort();
    const order: HeldOrder = {
      id: `${offer.OwnerCode}932${bookingId}${code(5)}`,
      bookingId,
      paymentLimit: limits[0] ?? new Date(clock.now().getTime() + HOLD_MS).toISOString(),
      quoted: offer,
      current: flightOf(offer) === MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking ? repriced(offer) : offer,
    };
    orders.set(order.id, order);
    ctx.body = orderView(order, order.quoted);
  });
  router.post('/OrderReshop', body, (ctx) => {
    const order = orderOf(ctx);
    if (!order) return;
    const changed = !sameAmount(order.current.TotalPrice.TotalAmount, order.quoted.TotalPrice.TotalAmount);
    order.quoted = order.current;
    ctx.body = {
      Order: { OrderID: order.id, OwnerCode: order.current.OwnerCode },
      ReshopResults: changed ? { RepricedOffer: { OfferID: order.current.OfferID, TotalPrice: order.current.TotalPrice } } : { NoChangeInd: true },
    };
  });
  router.post('/OrderChange', body, (ctx) => {
    const request = parsed(ctx, OrderChangeRequest);
    if (!request) return;
    const order = orders.get(request.Order.OrderID);
    if (!order) return void ndcError(ctx, '404', 'Order not found');
    if (order.tickets) return void ndcError(ctx, '395', 'Order already ticketed');
    if (!sameAmount(request.PaymentFunctions.PaymentProcessingDetails.Amount, order.current.TotalPrice.TotalAmount)) {
      return void ndcError(ctx, '727', 'Invalid amount/ currency', 'NotProcessed', 200, { Order: { OrderID: order.id, OwnerCode: order.current.OwnerCode } });
    }
    order.tickets = order.current.DataLists.PaxList.map((passenger) => ({
      PaxRefID: passenger.PaxID,
      TicketDocument: [{ TicketDocNbr: `932${randomInt(1_000_000_000, 10_000_000_000)}`, Type: 'T' }],
    }));
    ctx.body = orderView(order, order.current);
  });
  router.post('/OrderRetrieve', body, (ctx) => {
    const order = orderOf(ctx);
    if (order) ctx.body = orderView(order, order.current);
  });
  return router;
}

async function authenticate(ctx: Context, next: Next): Promise<void> {
  if (ctx.get('authorization').startsWith(`Bearer ${SANDBOX_TOKEN_PREFIX}`)) return next();
  ndcError(ctx, '401', 'Authentication failed: invalid or missing credentials', 'NotProcessed', 401);
}

/** An NDC error answer; always false, so that a guard can return it. */
function ndcError(ctx: Context, code: string, text: string, type = 'NotProcessed', status = 200, beside: Record<string, unknown> = {}): false {
  ctx.status = status;
  ctx.body = { Errors: [{ Code: code, DescText: text, TypeCode: type }], ...beside };
  return false;
}

/** The request body read with `schema`, or undefined when the 400 answer was given. */
function parsed<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> | undefined {
  const result = schema.safeParse(ctx.request.body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  ndcError(ctx, '400', `Invalid request: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(), 'NotProcessed', 400);
  return undefined;
}

function flightOf(offer: WireOffer): string | undefined {
  return offer.DataLists.DatedMarketingSegmentList[0]?.MarketingCarrierFlightNumberText;
}

/** 7.5% more on each passenger's base fare; taxes stay as they were, the totals follow. */
function repriced(offer: WireOffer): WireOffer {
  const copy = structuredClone(offer);
  const currency = copy.TotalPrice.TotalAmount.curCode;
  const add = (amount: { amount: string }, units: bigint) => {
    amount.amount = fromMinorUnits(toMinorUnits(amount.amount, currency) + units, currency);
  };
  for (const item of copy.OfferItem) {
    const increase = (toMinorUnits(item.Price.BaseAmount.amount, currency) * 75n) / 1000n;
    add(item.Price.BaseAmount, increase);
    add(item.Price.TotalAmount, increase);
    add(copy.TotalPrice.TotalAmount, increase * BigInt(item.FareDetail.PaxRefID.length));
  }
  return copy;
}

function sameAmount(a: { amount: string; curCode: string }, b: { amount: string; curCode: string }): boolean {
  try {
    return a.curCode === b.curCode && toMinorUnits(a.amount, a.curCode) === toMinorUnits(b.amount, b.curCode);
  } catch {
    // More decimals than the currency has, or no currency at all: not the amount asked for.
    return false;
  }
}

/**
 * Names of letters, spaces, hyphens and apostrophes (151 otherwise, or for the magic surname); a name
 * for every passenger of the offer (73); a birth date that fits the passenger type on the day of the
 * first flight (152): adults 12 and over, children 2 to 11, infants under 2.
 */
function passengerRefusal(offer: WireOffer, people: z.output<typeof OrderCreateRequest>['DataLists']['PaxList']): { code: string; text: string } | undefined {
  const travelDay = offer.DataLists.DatedMarketingSegmentList[0]?.Dep.AircraftScheduledDateTime.slice(0, 10) ?? '';
  for (const passenger of offer.DataLists.PaxList) {
    const person = people.find((item) => item.PaxID === passenger.PaxID)?.Individual;
    if (!person?.GivenName || !person.Surname) return { code: '73', text: `Name missing for passenger ${passenger.PaxID}` };
    const names = [person.GivenName, person.Surname];
    if (person.Surname.toUpperCase() === MAGIC_SURNAME_INVALID || names.some((name) => !/^\p{L}[\p{L} '-]*$/u.test(name))) {
      return { code: '151', text: `Invalid name for passenger ${passenger.PaxID}` };
    }
    if (person.Birthdate !== undefined) {
      const age = ageOn(person.Birthdate, travelDay);
      const fits = { ADT: (years: number) => years >= 12, CHD: (years: number) => years >= 2 && years < 12, INF: (years: number) => years < 2 }[passenger.PTC];
      if (age === undefined || age < 0 || (fits && !fits(age))) return { code: '152', text: `Invalid age for passenger ${passenger.PaxID}` };
    }
  }
  return undefined;
}

/** Whole years from `birth` to `day` (both YYYY-MM-DD); undefined for a date that is not one. */
function ageOn(birth: string, day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(birth) || Number.isNaN(Date.parse(`${birth}T00:00:00Z`))) return undefined;
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [dy, dm, dd] = day.split('-').map(Number) as [number, number, number];
  return dy - by - (dm < bm || (dm === bm && dd < bd) ? 1 : 0);
}

/** Upper-case letters and digits, as airlines write booking references. */
function code(length: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

function orderView(order: HeldOrder, offer: WireOffer) {
  return {
    Order: {
      OrderID: order.id,
      OwnerCode: offer.OwnerCode,
      TotalPrice: offer.TotalPrice,
      PaymentTimeLimitDateTime: order.paymentLimit,
      OrderItem: offer.OfferItem.map((item) => ({
        OrderItemID: `${order.id}-${item.OfferItemID}`,
        PaymentTimeLimitDateTime: order.paymentLimit,
        Price: item.Price,
        Service: item.FareDetail.PaxRefID.map((passenger) => ({
          ServiceID: `${item.OfferItemID}-${passenger}`,
          PaxRefID: passenger,
          StatusCode: 'CONFIRMED',
          BookingRef: { BookingID: order.bookingId },
        })),
      })),
    },
    ...(order.tickets ? { TicketDocInfo: order.tickets } : {}),
  };
}

/**
 * SeatAvailabilityRS from the shared seat fixtures (sandbox-cabins.ts): the aircraft of each PaxSegment's
 * operating segment (an A320 when unknown); every free seat points to the à la carte item of its price.
 */
function seatAvailability(offer: WireOffer) {
  const lists = offer.DataLists;
  const currency = offer.TotalPrice.TotalAmount.curCode;
  const bands = new Map<number, string>();
  const bandOf = (price: number): string => {
    const known = bands.get(price);
    if (known) return known;
    const id = `SEAT-${bands.size + 1}`;
    bands.set(price, id);
    return id;
  };
  const seatMaps = lists.PaxSegmentList.map((segment) => {
    const marketing = lists.DatedMarketingSegmentList.find((item) => item.DatedMarketingSegmentId === segment.DatedMarketingSegmentRefId);
    const operating = lists.DatedOperatingSegmentList?.find((item) => item.DatedOperatingSegmentId === marketing?.DatedOperatingSegmentRefId);
    return {
      PaxSegmentRefID: segment.PaxSegmentID,
      CabinCompartment: cabinsOf(operating?.AircraftTypeCode).map((layout) => compartment(layout, currency, bandOf)),
    };
  });
  return {
    ALaCarteOffer: {
      OfferID: `${offer.OfferID}-SEATS`,
      OwnerCode: offer.OwnerCode,
      ALaCarteOfferItem: [...bands].map(([price, id]) => ({
        OfferItemID: id,
        UnitPrice: { TotalAmount: { amount: toDecimalString(price, currency), curCode: currency } },
        ServiceDefinitionRefID: 'SEAT',
      })),
    },
    SeatMap: seatMaps,
  };
}

function compartment(layout: CabinLayout, currency: string, bandOf: (price: number) => string) {
  const letters = layout.sections.flat();
  const rows = [];
  for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
    rows.push({
      RowNumber: row,
      ...(layout.exitRows.includes(row) ? { RowCharacteristicCode: 'E' } : {}),
      Seat: letters.map((letter) => {
        const state = seatState(row, letter, layout, currency);
        const free = state.status === 'available';
        // PADIS seat characteristics: W window, A aisle, 9 centre, E exit row, 1 restricted, CH chargeable.
        const codes = [POSITION_CODES[state.position], ...(state.exitRow ? ['E'] : []), ...(state.status === 'blocked' ? ['1'] : []), ...(free && state.price > 0 ? ['CH'] : [])];
        return { ColumnID: letter, OccupationStatusCode: STATUS_CODES[state.status], SeatCharacteristicCode: codes, ...(free ? { OfferItemRefID: bandOf(state.price) } : {}) };
      }),
    });
  }
  return {
    DeckCode: 'Main',
    FirstRowNumber: layout.rows[0],
    LastRowNumber: layout.rows[1],
    CabinTypeCode: CABIN_TYPE_CODES[layout.cabinClass],
    SeatColumn: letters.map((letter) => ({ ColumnID: letter, SeatCharacteristicCode: POSITION_CODES[seatState(layout.rows[0], letter, layout, currency).position] })),
    // Galley and lavatory at the front of the cabin.
    CabinComponent: [
      { CabinComponentTypeCode: 'G', ColumnID: letters[0] },
      { CabinComponentTypeCode: 'LA', ColumnID: letters.at(-1) },
    ],
    SeatRow: rows,
  };
}
