/**
 * provider_d's native formats (modelled on Kiwi.com Tequila): the search answer, check_flights, and the
 * booking calls. Money is JSON numbers (floats), query dates dd/mm/YYYY, durations in seconds, and
 * `local_departure` carries a misleading `Z` although it is the airport's wall-clock time.
 *
 * Its offer, as we take it (createProviderOffer) and keep it, is the search answer narrowed to the chosen
 * item: `{currency, search_params, data: [item]}`. The item alone names neither the currency of its
 * `price` nor how many passengers it was priced for; the answer around it does. After check_flights the
 * last check is kept beside it as `check_flights` (providers.md §2: "search item + last check_flights").
 */
import { z } from 'zod';

const Iata = z.string().regex(/^[A-Z]{3}$/, 'an IATA airport code such as LHR');
const Carrier = z.string().regex(/^[A-Z0-9]{2}$/, 'an IATA airline code such as BA');
const Money = z.number().nonnegative().finite();
/** Wall-clock time at the airport, written with a `Z` that does not mean UTC. */
const FakeUtc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, 'a time such as 2026-06-01T08:25:00.000Z');
const Count = z.number().int().min(0).max(9);

export const WireRouteSegment = z.looseObject({
  id: z.string().min(1),
  flyFrom: Iata,
  flyTo: Iata,
  cityFrom: z.string().optional(),
  cityTo: z.string().optional(),
  airline: Carrier,
  operating_carrier: z.string().optional(),
  flight_no: z.number().int().positive(),
  operating_flight_no: z.string().optional(),
  equipment: z.string().nullable().optional(),
  fare_basis: z.string().optional(),
  fare_category: z.enum(['M', 'W', 'C', 'F']),
  fare_classes: z.string().optional(),
  return: z.union([z.literal(0), z.literal(1)]),
  local_departure: FakeUtc,
  utc_departure: z.iso.datetime(),
  local_arrival: FakeUtc,
  utc_arrival: z.iso.datetime(),
});

export const WireSearchItem = z.looseObject({
  id: z.string().min(1),
  booking_token: z.string().min(1),
  price: Money,
  conversion: z.record(z.string(), Money).optional(),
  fare: z.looseObject({ adults: Money, children: Money, infants: Money }).optional(),
  bags_price: z.record(z.string(), Money).optional(),
  baglimit: z
    .looseObject({
      hand_weight: z.number().optional(),
      hand_length: z.number().optional(),
      hand_width: z.number().optional(),
      hand_height: z.number().optional(),
      hold_weight: z.number().optional(),
      hold_length: z.number().optional(),
      hold_width: z.number().optional(),
      hold_height: z.number().optional(),
    })
    .optional(),
  availability: z.looseObject({ seats: z.number().int().nullable() }).optional(),
  airlines: z.array(Carrier).min(1),
  route: z.array(WireRouteSegment).min(1),
  duration: z.looseObject({ departure: z.number().int(), return: z.number().int(), total: z.number().int() }).optional(),
  deep_link: z.string().optional(),
  virtual_interlining: z.boolean().optional(),
});
export type WireSearchItem = z.infer<typeof WireSearchItem>;

export const WireSeats = z.looseObject({ passengers: z.number().int().min(1).max(9).optional(), adults: Count, children: Count, infants: Count });

const BagPrice = z.looseObject({ amount: Money, base: Money.optional(), currency: z.string().regex(/^[A-Z]{3}$/) });
const BagRestrictions = z.looseObject({
  weight: z.number().nullable().optional(),
  length: z.number().nullable().optional(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  dimensions_sum: z.number().nullable().optional(),
});
const BagDefinition = z.looseObject({
  category: z.string(),
  price: BagPrice,
  restrictions: BagRestrictions.optional(),
  conditions: z.looseObject({ passenger_groups: z.array(z.string()) }).optional(),
});
export const WireBagCombination = z.looseObject({
  indices: z.array(z.number().int().min(0)),
  category: z.string(),
  conditions: z.looseObject({ passenger_groups: z.array(z.string()) }).optional(),
  price: BagPrice,
});
export type WireBagCombination = z.infer<typeof WireBagCombination>;

export const WireCheckFlights = z.looseObject({
  server_time: z.number().optional(),
  session_id: z.string().optional(),
  flights_checked: z.boolean(),
  flights_invalid: z.boolean(),
  price_change: z.boolean(),
  /** In EUR, the currency provider_d settles in. */
  total: Money,
  orig_price: Money.optional(),
  /** The total in the currency asked for. */
  conversion: z.looseObject({ currency: z.string().regex(/^[A-Z]{3}$/), amount: Money }).optional(),
  max_passengers: z.number().int().optional(),
  document_options: z.looseObject({ document_need: z.union([z.literal(0), z.literal(1), z.literal(2)]) }).optional(),
  baggage: z
    .looseObject({
      definitions: z.looseObject({ hold_bag: z.array(BagDefinition).optional(), hand_bag: z.array(BagDefinition).optional() }),
      combinations: z.looseObject({ hold_bag: z.array(WireBagCombination).optional(), hand_bag: z.array(WireBagCombination).optional() }),
    })
    .optional(),
  flights: z.array(z.looseObject({ id: z.string(), forced_priority_boarding: z.boolean().optional(), invalid: z.boolean().optional() })).optional(),
});
export type WireCheckFlights = z.infer<typeof WireCheckFlights>;

export const WireOffer = z.looseObject({
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as GBP: the currency the search asked for (curr)'),
  search_params: z.looseObject({ seats: WireSeats }),
  data: z.array(WireSearchItem).length(1, 'the one search item chosen (keep only it from the search answer)'),
  check_flights: WireCheckFlights.optional(),
});
export type WireOffer = z.infer<typeof WireOffer>;

export const WireSearchAnswer = z.looseObject({
  search_id: z.string(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  data: z.array(WireSearchItem),
  search_params: z.looseObject({ seats: WireSeats }),
});

const Conversion = z.looseObject({ currency: z.string().regex(/^[A-Z]{3}$/), amount: Money });

/**
 * A booking, as save_booking answers it and GET /v2/booking/{id} (invented) shows it. save_booking's
 * documented fields are booking_id, transaction_id, status, price_change, flights_invalid, total and
 * passengers; the rest is the sandbox's (invented): its client reference, PNR, total in the searched
 * currency, payment deadline and cancellation.
 */
export const WireBooking = z.looseObject({
  booking_id: z.number().int().positive(),
  transaction_id: z.string().min(1),
  client_reference: z.string().nullable().optional(),
  status: z.enum(['CONFIRMATION_PENDING', 'CONFIRMED', 'CANCELLED']),
  pnr: z.string().nullable().optional(),
  /** In EUR. */
  total: Money,
  conversion: Conversion,
  price_change: z.boolean().optional(),
  flights_invalid: z.boolean().optional(),
  payment_deadline: z.iso.datetime(),
  passengers: z.array(z.looseObject({ pk: z.number().int(), bid: z.number().int() })),
  cancellation: z.looseObject({ reason: z.string() }).nullable().optional(),
});
export type WireBooking = z.infer<typeof WireBooking>;

/** confirm_payment's answer: `status` 0 when paid, -1 with `msg` when not. */
export const WireConfirmPayment = z.looseObject({ status: z.number().int(), msg: z.string().optional() });

/** POST /v2/booking/{id}/cancel (invented): what the cancellation gives back, in EUR and converted. */
export const WireCancellation = z.looseObject({
  booking_id: z.number().int().positive(),
  status: z.literal('CANCELLED'),
  cancelled_at: z.iso.datetime(),
  reason: z.string(),
  refund: z.looseObject({ amount: Money, currency: z.literal('EUR'), conversion: Conversion }).nullable(),
});

/** What an error answer says; only used to tell failures apart, never shown to callers. */
export const WireError = z.looseObject({ error: z.string().optional(), message: z.string().optional() });
