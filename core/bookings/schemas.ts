/**
 * Bookings (specification: CreateBookingRequest, RetryBookingRequest, BookingResponse, Booking,
 * BookingPassenger, CancellationResult, TripSummary; decisions §2, §4, §9): one truth for REST, the agent
 * tools and the OpenAPI document.
 */
import { z } from 'zod';
import { amountBoundIssue, CurrencyCode, DecimalString } from '../flights/offer-schemas.js';
import { MAX_WHOLE_DIGITS, minorUnits } from '../money/money.js';
import { ProviderId } from '../flights/schemas.js';
import { Passenger } from '../passengers/schemas.js';
import { CalendarDate, PersonName } from '../validation.js';
import { BOOKING_EXAMPLE, BOOKING_PASSENGER_EXAMPLE, CANCELLATION_EXAMPLE, CREATE_BOOKING_EXAMPLE, TRIP_SUMMARY_EXAMPLE } from './examples.js';

const dateTime = z.iso.datetime({ offset: true });
const localDateTime = z.iso.datetime({ local: true });

export const BOOKING_STATUSES = ['pending', 'payment_authorized', 'booking_created', 'payment_captured', 'failed', 'cancelled', 'confirmed'] as const;
export const BookingStatus = z
  .enum(BOOKING_STATUSES)
  .describe(
    'pending → payment_authorized (the card is authorized) → booking_created (the airline order exists; a hold rests here) → payment_captured → confirmed. failed: nothing was charged, or what was charged was given back. cancelled: cancelled after confirmation (refund per the fare), or a hold that lapsed.',
  );
export type BookingStatus = z.infer<typeof BookingStatus>;

const IdentityDocumentInput = z.strictObject({
  expires_on: CalendarDate,
  issuing_country_code: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code in capitals, such as GB'),
  type: z.enum(['passport', 'tax_id', 'known_traveler_number', 'passenger_redress_number']),
  unique_identifier: z.string().trim().min(3).max(50),
});

export const BookingPassengerInput = z
  .strictObject({
    id: z.string().max(100).optional().describe("The passenger's id inside the offer; may be empty (provider_b does not need it)."),
    provider_passenger_id: z.string().max(100).optional().describe("The passenger's id inside the offer (`passengers[].id`); wins over `id`. When no passenger names one, they are taken in the offer's order."),
    type: z.string().max(30).optional().describe("The offer's passenger type (adult, child, infant_without_seat); checked against the offer."),
    traveler_type: z.enum(['adult', 'child', 'infant']).optional(),
    title: z.enum(['mr', 'ms', 'mrs', 'miss', 'dr']).optional(),
    first_name: PersonName(1),
    middle_name: PersonName(1).optional(),
    last_name: PersonName(1),
    born_on: CalendarDate,
    email: z.email().max(255).optional(),
    phone_number: z.string().regex(/^\+[1-9]\d{6,18}$/, 'an E.164 number such as +447700900123').optional(),
    gender: z.enum(['male', 'female']).optional(),
    known_traveler_number: z.string().regex(/^[A-Za-z0-9]{5,25}$/, '5 to 25 letters and digits').optional(),
    identity_documents: z.array(IdentityDocumentInput).max(5).optional(),
  })
  .meta({ id: 'BookingPassengerInput', examples: [CREATE_BOOKING_EXAMPLE.passengers[0]] });
export type BookingPassengerInput = z.infer<typeof BookingPassengerInput>;

export const ContactInfo = z
  .strictObject({
    email: z.email().max(255),
    phone_number: z.string().regex(/^\+[1-9]\d{6,18}$/, 'an E.164 number such as +447700900123'),
    first_name: PersonName(1),
    last_name: PersonName(1),
    title: z.enum(['mr', 'ms', 'mrs', 'miss', 'dr']).optional(),
  })
  .meta({ id: 'ContactInfo', description: 'Who the airline contacts about the booking.', examples: [CREATE_BOOKING_EXAMPLE.contact_info] });

export const SeatSelectionInput = z
  .strictObject({
    segment_id: z.string().min(1).max(100),
    passenger_id: z.string().min(1).max(100).describe("The passenger's id inside the offer."),
    seat_number: z.string().regex(/^\d{1,3}[A-Z]$/, 'a seat such as 14C'),
    row: z.string().max(3).optional(),
    column: z.string().max(1).optional(),
    price: z
      .number()
      .min(0)
      // Below 10^11, as every amount (core/money: MAX_WHOLE_DIGITS).
      .lt(10 ** MAX_WHOLE_DIGITS)
      .optional()
      .describe('Informative: the price is the seat map’s.'),
    currency: CurrencyCode.optional(),
  })
  .meta({
    id: 'SeatSelection',
    description: 'A seat from the offer’s seat maps (getOfferSeatMaps) for one passenger on one segment.',
    examples: [CREATE_BOOKING_EXAMPLE.seat_selections[0]],
  });

export const ServiceSelection = z.strictObject({
  id: z.string().min(1).max(100).describe('An `available_services` id of the offer.'),
  quantity: z.number().int().min(1).max(9),
});

/** Stable quotes: the total the caller showed the traveler; another current total is 409 total_changed. */
export const ExpectedTotal = z
  .strictObject({ amount: DecimalString.describe('The total as a decimal string, services and seats included.'), currency: CurrencyCode })
  .superRefine((expected, context) => {
    // Checked here, so that the envelope names expected_total.amount or .currency rather than a bare `amount`.
    const digits = minorUnits(expected.currency);
    if (digits === undefined) {
      context.addIssue({ code: 'custom', path: ['currency'], input: expected.currency, message: `${expected.currency} is not an ISO 4217 currency` });
      return;
    }
    if (/[1-9]/.test((expected.amount.split('.')[1] ?? '').slice(digits))) {
      context.addIssue({ code: 'custom', path: ['amount'], input: expected.amount, message: `${expected.amount} has more decimal places than ${expected.currency} has (${digits})` });
      return;
    }
    const tooLarge = amountBoundIssue(expected.amount, expected.currency, ['amount']);
    if (tooLarge) context.addIssue(tooLarge);
  })
  .describe(
    'The total you showed the traveler (offer, services and seats). When the current total is another, the booking is refused with 409 total_changed (both totals in the error) before any card is touched.',
  );

const BookingFields = {
  provider_id: z.string().max(50).optional().describe('Taken from the path; ignored here.'),
  offer_id: z.string().min(1).max(100).describe('Our offer id (createProviderOffer or create_offer).'),
  passengers: z.array(BookingPassengerInput).min(1).max(9),
  contact_info: ContactInfo,
  payment_method_id: z.uuid().describe('One of the traveler’s saved cards (listPaymentMethods).'),
  customer_id: z.string().max(200).optional().describe('Ignored (senders should omit it).'),
  currency: CurrencyCode.describe('Must be the offer’s currency.'),
  user_id: z.string().describe('The traveler: `me` or their id (the token’s traveler).'),
  idempotency_key: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
    .describe('Stable per booking attempt: a repeat with the same key and body returns the first booking; the same key with another body is 409 idempotency_conflict.'),
  metadata: z
    .record(z.string().max(40), z.string().max(500))
    .refine((value) => Object.keys(value).length <= 20, 'at most 20 keys')
    .optional()
    .describe('Your own keys and values, returned as sent.'),
  services: z.array(ServiceSelection).max(20).optional().describe('Chosen `available_services` of the offer (bags and the like), where the provider sells them.'),
  order_type: z.enum(['instant', 'hold']).optional().describe('`hold` only where the provider supports holds (supports_hold_booking); default `instant`.'),
  seat_selections: z.array(SeatSelectionInput).max(40).optional(),
  expected_total: ExpectedTotal.optional(),
};

export const CreateBookingRequest = z.strictObject(BookingFields).meta({ id: 'CreateBookingRequest', examples: [CREATE_BOOKING_EXAMPLE] });
export type CreateBookingRequest = z.infer<typeof CreateBookingRequest>;

export const RetryBookingRequest = z
  .strictObject({ ...BookingFields, order_id: z.string().min(1).max(200).describe('The `order_id` of the price_changed error of the failed attempt.') })
  .meta({
    id: 'RetryBookingRequest',
    description: 'The failed attempt’s request, plus the order id of its price_changed error: the held order is paid at its new total.',
    examples: [{ ...CREATE_BOOKING_EXAMPLE, order_id: 'VS932GXF77323' }],
  });
export type RetryBookingRequest = z.infer<typeof RetryBookingRequest>;

/**
 * create_booking's input: what an agent knows. The rest of a CreateBookingRequest (the traveler, the
 * currency, the card, passengers and contact where left out) is looked up for it (agent-booking.ts).
 */
export const AgentBookingRequest = z.strictObject({
  provider_id: ProviderId,
  offer_id: z.uuid().describe('The offer’s id, as create_offer (or createProviderOffer over REST) answered it.'),
  payment_method_id: z
    .uuid()
    .optional()
    .describe('The card to charge, an id from list_payment_methods. Left out: the traveler’s default card.'),
  passengers: z
    .array(BookingPassengerInput)
    .min(1)
    .max(9)
    .optional()
    .describe(
      'Every passenger of the offer, names as in the passport, with a passport in identity_documents where the offer says passenger_identity_documents_required. Left out: the traveler’s saved passengers the partner matched to the offer’s passengers.',
    ),
  contact: ContactInfo.optional().describe('Who the airline contacts. Left out: the traveler’s profile (e-mail, phone and name).'),
  bag_selections: z.array(ServiceSelection).max(20).optional().describe('Extra bags from get_bags: each `id` of bags_for_sale and how many.'),
  seat_selections: z.array(SeatSelectionInput).max(40).optional().describe('Seats from get_seat_map: segment_id, the passenger’s id in the offer, seat_number.'),
  order_type: BookingFields.order_type,
  expected_total: ExpectedTotal.optional(),
  confirmation_id: z
    .uuid()
    .optional()
    .describe(
      'The confirmation_id of a confirmation_required answer, once the traveler confirmed the purchase on the page it named. Clients that handle input-required results never need it: the retry carries it.',
    ),
  idempotency_key: BookingFields.idempotency_key
    .optional()
    .describe(
      'Send your own, stable for this purchase: a repeat with the same key and input answers the first booking instead of booking (and charging) twice, so a call whose answer was lost can be retried safely. Left out: a new key is made, and a repeat books again.',
    ),
});
export type AgentBookingRequest = z.infer<typeof AgentBookingRequest>;

export const Booking = z
  .object({
    id: z.uuid(),
    flight_offer_id: z.string().nullable(),
    user_id: z.uuid(),
    payment_method_id: z.uuid().nullable(),
    airline_pnr: z.string().nullable(),
    payment_intent_id: z.string().nullable(),
    total_amount: z.number().describe('The amount charged, in the currency’s major unit (a JSON number computed from minor units).'),
    currency: CurrencyCode,
    status: BookingStatus,
    idempotency_key: z.string(),
    provider_id: z.string(),
    provider_offer_id: z.string().nullable(),
    provider_order_id: z.string().nullable(),
    order_type: z.enum(['instant', 'hold']),
    payment_required_by: dateTime.nullable().describe('A hold must be confirmed before this, or it lapses (the authorization is voided).'),
    card_brand: z.string().nullable(),
    card_last4: z.string().nullable(),
    created_at: dateTime,
    updated_at: dateTime,
    trip_type: z.enum(['one_way', 'round_trip', 'multi_city']),
    origin_city: z.string().nullable(),
    origin_iata_code: z.string(),
    destination_city: z.string().nullable(),
    destination_iata_code: z.string(),
    departure_date: localDateTime.nullable().describe('Local time at the departure airport, without offset.'),
    return_date: localDateTime.nullable().describe('Local time of the return (or last) flight’s departure; null one way.'),
    airline_name: z.string().nullable(),
    airline_iata_code: z.string(),
    airline_logo_url: z.url(),
    passenger_count: z.number().int(),
    adult_count: z.number().int(),
    child_count: z.number().int(),
    infant_count: z.number().int(),
  })
  .meta({ id: 'Booking', examples: [BOOKING_EXAMPLE] });
export type Booking = z.infer<typeof Booking>;

export const BookingResponse = z
  .object({
    booking: Booking,
    payment_intent_id: z.string().nullable(),
    status: BookingStatus,
    metadata: z.record(z.string(), z.string()),
  })
  .meta({ id: 'BookingResponse', examples: [{ booking: BOOKING_EXAMPLE, payment_intent_id: BOOKING_EXAMPLE.payment_intent_id, status: 'confirmed', metadata: {} }] });
export type BookingResponse = z.infer<typeof BookingResponse>;

export const SeatSelectionRecord = z.object({
  id: z.uuid(),
  booking_id: z.uuid(),
  user_passenger_id: z.uuid().nullable(),
  segment_id: z.string(),
  seat_number: z.string(),
  seat_row: z.string().nullable(),
  seat_column: z.string().nullable(),
  price: z.number().nullable(),
  currency: z.string().nullable(),
  created_at: dateTime,
  updated_at: dateTime,
});

export const BookingPassenger = Passenger.omit({ user_id: true, is_default: true })
  .extend({
    id: z.uuid().describe('This booking passenger’s id.'),
    user_passenger_id: z.uuid().nullable().describe('The saved passenger it was booked as (saveOfferPassengers), if any.'),
    provider_passenger_id: z.string(),
    ticket_number: z.string().nullable(),
    seat_number: z.string().nullable().describe('The seat on the first segment, if chosen.'),
    fare_basis_code: z.string().nullable(),
    seat_selections: z.array(SeatSelectionRecord),
  })
  .meta({ id: 'BookingPassenger', examples: [BOOKING_PASSENGER_EXAMPLE] });
export type BookingPassenger = z.infer<typeof BookingPassenger>;

export const CancelBookingRequest = z
  .strictObject({ reason: z.string().trim().min(1).max(500).optional().describe('Why, in your words: kept with the booking and returned.') })
  .meta({ id: 'CancelBookingRequest', examples: [{ reason: 'plans changed' }] });

export const CancellationResult = z
  .object({
    booking_id: z.uuid(),
    is_cancelled: z.boolean(),
    refund_amount: z.number().nullable(),
    refund_currency: z.string().nullable(),
    cancelled_at: dateTime,
    reason: z.string().nullable(),
  })
  .meta({ id: 'CancellationResult', examples: [CANCELLATION_EXAMPLE] });
export type CancellationResult = z.infer<typeof CancellationResult>;

export const TRIP_STATUSES = ['upcoming', 'completed', 'cancelled'] as const;
export const TripSummary = z
  .object({
    id: z.uuid(),
    user_id: z.uuid(),
    status: z.enum(TRIP_STATUSES).describe('cancelled when the booking is; else completed once the last travel date is past; else upcoming.'),
    trip_type: z.enum(['one_way', 'round_trip', 'multi_city']),
    origin_city: z.string().nullable(),
    origin_iata_code: z.string(),
    destination_city: z.string().nullable(),
    destination_iata_code: z.string(),
    departure_date: CalendarDate.nullable(),
    return_date: CalendarDate.nullable(),
    airline_name: z.string().nullable(),
    airline_iata_code: z.string(),
    airline_logo_url: z.url(),
    passenger_count: z.number().int(),
    created_at: dateTime,
  })
  .meta({ id: 'TripSummary', examples: [TRIP_SUMMARY_EXAMPLE] });
export type TripSummary = z.infer<typeof TripSummary>;

export const TripListQuery = z.object({
  status: z.enum(TRIP_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional().describe('From the `Link` header of the previous page.'),
});
