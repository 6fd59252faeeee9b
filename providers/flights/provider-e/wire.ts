/**
 * provider_e's native shapes (modelled on LiteAPI / Nuitee flights, a checkout-only API: verify → prebook
 * → book), as zod. The native offer is the `offer` of its verify answer: what a partner sends verbatim to
 * create an offer, and what the sandbox serves. Money is JSON numbers beside a currency code; times of
 * day are local without offset, the expiration UTC. Unknown keys are kept (the native object is stored as
 * `raw_offer`); the fields the mapping reads are required and checked.
 */
import { z } from 'zod';

const Amount = z.number().finite().nonnegative();
const Currency = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as GBP');
const LocalTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'a local time without offset, such as 2026-06-01T08:25:00');
const Duration = z.string().regex(/^P(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$/, 'an ISO 8601 duration such as PT7H55M');
/** Its ids are opaque tokens (msgpack, base64url-encoded). */
const OpaqueId = z.string().regex(/^[A-Za-z0-9_-]{8,}$/, 'an opaque id of base64url characters');

const Price = z.looseObject({ amount: Amount, currency: Currency });

const Carrier = z.looseObject({ code: z.string().regex(/^[A-Z0-9]{2}$/, 'a two-character IATA airline code such as BA'), name: z.string().optional() });

const Airport = z.looseObject({
  code: z.string().regex(/^[A-Z]{3}$/, 'a three-letter IATA airport code such as LHR'),
  name: z.string().optional(),
  city: z.string().optional(),
  terminal: z.string().nullable().optional(),
});

const Allowance = z.looseObject({ pieces: z.number().int().min(0), weightKg: z.number().positive().nullable().optional() });

export const WireLeg = z.looseObject({
  segmentRef: z.string().min(1),
  carrier: Carrier,
  flightNumber: z.string().regex(/^\d{1,4}[A-Z]?$/, 'a flight number such as 117'),
  operatingCarrier: Carrier.extend({ flightNumber: z.string().nullable().optional() }),
  aircraft: z.looseObject({ code: z.string().min(2), name: z.string().optional() }).nullable().optional(),
  origin: Airport,
  destination: Airport,
  departure: LocalTime,
  arrival: LocalTime,
  duration: Duration.nullable().optional(),
  cabin: z.enum(['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST']),
  cabinName: z.string().optional(),
  fareBasis: z.string().nullable().optional(),
  fareFamily: z.string().nullable().optional(),
  baggage: z.looseObject({ carryOn: Allowance.nullable().optional(), checked: Allowance.nullable().optional() }),
});
export type WireLeg = z.infer<typeof WireLeg>;

/** A penalty of the fare rules; absent or null where the fare states none. */
const Penalty = Price.nullable().optional();

export const WireService = z.looseObject({
  serviceId: OpaqueId,
  type: z.enum(['BAGGAGE', 'SEAT', 'MEAL']),
  /** Absent: for every segment (or passenger) of the offer. */
  segmentRef: z.string().optional(),
  passengerRef: z.string().optional(),
  seatNumber: z.string().regex(/^\d{1,3}[A-Z]$/).optional(),
  baggageType: z.enum(['CHECKED', 'CARRY_ON']).optional(),
  description: z.string(),
  weightKg: z.number().positive().optional(),
  dimensionsCm: z.looseObject({ length: z.number().int(), width: z.number().int(), height: z.number().int() }).optional(),
  maxQuantity: z.number().int().min(0).optional(),
  price: Price,
});
export type WireService = z.infer<typeof WireService>;

export const WireOffer = z.looseObject({
  offerId: OpaqueId,
  expiration: z.iso.datetime({ offset: true }),
  pricing: z.looseObject({
    display: z.looseObject({ total: Amount, base: Amount.nullable().optional(), taxes: Amount.nullable().optional(), currency: Currency }),
  }),
  validatingCarrier: Carrier,
  journeys: z
    .array(z.looseObject({ journeyRef: z.string().min(1), duration: Duration.nullable().optional(), legs: z.array(WireLeg).min(1) }))
    .min(1),
  passengers: z.array(z.looseObject({ passengerRef: z.string().min(1), type: z.enum(['ADT', 'CHD', 'INF']), age: z.number().int().min(0).optional() })).min(1),
  fareRules: z.looseObject({ refundable: z.boolean(), changeable: z.boolean(), refundPenalty: Penalty, changePenalty: Penalty }),
  /** What the fare includes beyond bags; absent: not stated. */
  fareFeatures: z
    .looseObject({ seatSelection: z.boolean().optional(), priorityBoarding: z.boolean().optional(), priorityCheckIn: z.boolean().optional() })
    .optional(),
  requirements: z.looseObject({ documentRequired: z.boolean(), documentTypes: z.array(z.string()) }),
  servicesAttachable: z.array(WireService).optional(),
});
export type WireOffer = z.infer<typeof WireOffer>;

const Pricing = z.looseObject({ total: Amount, base: Amount.nullable().optional(), taxes: Amount.nullable().optional(), currency: Currency });

/** POST /flights/verify: the offer as it is binding now, and what changed since it was last given. */
export const WireVerifyAnswer = z.looseObject({
  data: z.looseObject({
    offer: WireOffer,
    changes: z.looseObject({ pricing: z.looseObject({ old: Pricing, new: Pricing }).nullable().optional() }).nullable().optional(),
  }),
});

/** POST /flights/seatmaps: per segment, every seat's state, and the seats sold as attachable services. */
export const WireSeatMap = z.looseObject({
  segmentRef: z.string(),
  aircraft: z.string().nullable().optional(),
  seats: z.array(
    z.looseObject({
      seatNumber: z.string().regex(/^\d{1,3}[A-Z]$/),
      cabin: z.string().optional(),
      status: z.enum(['AVAILABLE', 'OCCUPIED', 'BLOCKED']),
      position: z.enum(['WINDOW', 'MIDDLE', 'AISLE']),
      exitRow: z.boolean().default(false),
    }),
  ),
  servicesAttachable: z.array(WireService.extend({ type: z.literal('SEAT'), seatNumber: z.string().regex(/^\d{1,3}[A-Z]$/) })),
});
export type WireSeatMap = z.infer<typeof WireSeatMap>;

export const WireSeatMapsAnswer = z.looseObject({ data: z.looseObject({ offerId: z.string(), seatmaps: z.array(WireSeatMap) }) });

/** A seat or bag attached to a prebook (and then its booking), as priced when attached. */
const WireSelectedService = z.looseObject({
  serviceId: z.string().min(1),
  type: z.enum(['BAGGAGE', 'SEAT', 'MEAL']),
  segmentRef: z.string().optional(),
  passengerRef: z.string().optional(),
  seatNumber: z.string().regex(/^\d{1,3}[A-Z]$/).optional(),
  quantity: z.number().int().min(1),
  price: Price,
});

/** What a checkout costs: the fare, plus `services` once seats or bags are attached. */
const CheckoutPricing = z.looseObject({ display: Pricing.extend({ services: Amount.optional() }) });

/** A prebook (its checkout session): POST /flights/prebooks, GET /flights/prebooks/{id}, its services call. */
export const WirePrebook = z.looseObject({
  prebookId: z.string().min(1),
  offerId: z.string(),
  clientReference: z.string().nullable().optional(),
  status: z.enum(['PREBOOKED', 'BOOKED', 'CANCELLED', 'EXPIRED']),
  transactionId: z.string().min(1),
  expiration: z.iso.datetime({ offset: true }),
  pricing: CheckoutPricing,
  changes: z.looseObject({ pricing: z.looseObject({ old: Pricing, new: Pricing }).nullable().optional() }).nullable().optional(),
  selectedServices: z.array(WireSelectedService).default([]),
  bookingId: z.string().nullable().optional(),
  cancelledAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type WirePrebook = z.infer<typeof WirePrebook>;
export const WirePrebookAnswer = z.looseObject({ data: WirePrebook });

/** A booking: POST /flights/bookings, GET and DELETE /flights/bookings/{id}. */
export const WireBooking = z.looseObject({
  bookingId: z.string().min(1),
  bookingRef: z.string().min(1),
  status: z.enum(['CONFIRMED', 'CANCELLED']),
  prebookId: z.string(),
  pricing: CheckoutPricing,
  passengers: z.array(z.looseObject({ passengerRef: z.string(), ticketNumber: z.string().nullable().optional() })),
  services: z.array(WireSelectedService).default([]),
  cancelledAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** What a cancel refunded; null when nothing. */
  refund: Price.nullable().optional(),
});
export type WireBooking = z.infer<typeof WireBooking>;
export const WireBookingAnswer = z.looseObject({ data: WireBooking });

/** provider_e's error body: a numeric code (its own table, see sandbox.ts) and a message. */
export const WireError = z.looseObject({
  error: z.looseObject({ code: z.number().int(), message: z.string().optional(), details: z.array(z.looseObject({ field: z.string() })).optional() }),
});

/** Its error codes (the sandbox answers with them; the adapter acts on some). */
export const ERROR_CODES = {
  unauthorized: 4010,
  /** Not found, which is how it says an offer expired, at any step. */
  offerNotFound: 4040,
  bookingNotFound: 4041,
  prebookNotFound: 4042,
  validation: 4002,
  /** Invented: a CREDIT payment whose amount is not the prebook's price. */
  amountMismatch: 4003,
  /** Invented: the prebook is booked already (attach services to it, or cancel it, no more). */
  prebookBooked: 4090,
  noAvailability: 2001,
  internal: 5000,
} as const;
