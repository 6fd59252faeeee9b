/**
 * The normalized Offer (specification: Offer (normalized)): one shape for every provider, close to
 * Duffel's, which the specification's Offer follows. Amounts are decimal strings with exactly their
 * currency's minor units; times of day are local to the airport (no offset), as every provider gives them;
 * `expires_at` is UTC.
 */
import { z } from 'zod';
import { MAX_WHOLE_DIGITS, maxAmount, minorUnits } from '../money/money.js';
import {
  AVAILABLE_SERVICE_EXAMPLE,
  FARE_CLASS_METADATA_EXAMPLE,
  OFFER_EXAMPLE,
  OFFER_PASSENGER_EXAMPLE,
  OFFER_PASSENGER_MAPPING_EXAMPLE,
  PASSENGER_UPDATE_EXAMPLE,
  PRICING_RESULT_EXAMPLE,
  SEAT_MAP_EXAMPLE,
} from './offer-examples.js';

export const DecimalString = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'a decimal amount such as "512.46"')
  .describe(
    `A decimal amount as a string, with exactly the minor units of its currency (GBP "512.46", JPY "154300", KWD "62.450"), and at most ${MAX_WHOLE_DIGITS} digits before the decimal point (up to "99999999999.99" GBP): a larger amount is refused with a validation error naming its field (rule \`max\`).`,
  );

/**
 * The zod issue of `amount` (a DecimalString) when it is beyond the bound of every amount (MAX_WHOLE_DIGITS
 * of `currency`): the validation envelope names `path` with rule `max` and the largest amount taken.
 */
export function amountBoundIssue(amount: string, currency: string, path: PropertyKey[]): z.core.$ZodRawIssue | undefined {
  // An unknown currency has its own issue; the fraction's rule is the currency's minor units.
  if (minorUnits(currency) === undefined) return undefined;
  // The digits before the point, but for a sign and leading zeros (counted in place: this runs per amount).
  const point = amount.indexOf('.');
  let start = amount.startsWith('-') ? 1 : 0;
  const end = point === -1 ? amount.length : point;
  while (start < end && amount[start] === '0') start++;
  if (end - start <= MAX_WHOLE_DIGITS) return undefined;
  return { code: 'too_big', origin: 'number', maximum: Number(maxAmount(currency)), inclusive: true, path, input: amount };
}

export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as GBP').describe('ISO 4217 currency code.');

const LocalDateTime = z.iso.datetime({ local: true }).describe('Local time at the airport, without offset: 2026-06-01T08:25:00.');
const UtcDateTime = z.iso.datetime({ offset: true });
const Iata = z.string().regex(/^[A-Z0-9]{2,3}$/);

export const Place = z.object({
  iata_code: Iata.describe('IATA airport code.'),
  name: z.string().optional(),
  city_name: z.string().optional(),
  terminal: z.string().nullable().optional(),
});

export const Carrier = z.object({ iata_code: Iata.describe('IATA airline code.'), name: z.string().optional() });

export const CabinClass = z.enum(['economy', 'premium_economy', 'business', 'first']);

export const SegmentPassenger = z.object({
  passenger_id: z.string(),
  cabin_class: CabinClass,
  cabin_class_marketing_name: z.string().optional(),
  fare_basis_code: z.string().nullable().optional(),
  fare_brand_name: z.string().nullable().optional(),
  baggages: z.array(z.object({ type: z.enum(['checked', 'carry_on']), quantity: z.number().int().min(0) })),
});

export const Segment = z.object({
  id: z.string(),
  origin: Place,
  destination: Place,
  departing_at: LocalDateTime,
  arriving_at: LocalDateTime,
  duration: z.string().nullable().describe('ISO 8601 duration: PT7H55M.'),
  marketing_carrier: Carrier,
  marketing_carrier_flight_number: z.string(),
  operating_carrier: Carrier,
  operating_carrier_flight_number: z.string().nullable().optional(),
  aircraft: z.object({ iata_code: z.string(), name: z.string().optional() }).nullable(),
  passengers: z.array(SegmentPassenger),
});

const Penalty = z.object({
  allowed: z.boolean(),
  penalty_amount: DecimalString.nullable(),
  penalty_currency: CurrencyCode.nullable(),
});

export const Conditions = z
  .object({
    refund_before_departure: Penalty.nullable().optional(),
    change_before_departure: Penalty.nullable().optional(),
    advance_seat_selection: z.boolean().nullable().optional(),
    priority_boarding: z.boolean().nullable().optional(),
    priority_check_in: z.boolean().nullable().optional(),
  })
  .describe('What the fare allows; null where the provider does not say.');

export const Slice = z.object({
  id: z.string(),
  origin: Place,
  destination: Place,
  duration: z.string().nullable(),
  fare_brand_name: z.string().nullable().optional(),
  conditions: Conditions,
  segments: z.array(Segment).min(1),
});

export const OfferPassenger = z.object({
  id: z.string().describe("The provider's passenger id inside this offer (`provider_passenger_id`)."),
  type: z.enum(['adult', 'child', 'infant_without_seat']),
  age: z.number().int().nullable().optional(),
});

export const AvailableService = z
  .object({
    id: z.string(),
    type: z.enum(['baggage', 'seat', 'meal', 'priority_boarding', 'cancel_for_any_reason', 'other']),
    name: z.string().optional(),
    description: z.string().optional(),
    total_amount: DecimalString,
    total_currency: CurrencyCode,
    segment_ids: z.array(z.string()),
    passenger_ids: z.array(z.string()),
    maximum_quantity: z.number().int().min(0).optional(),
    weight: z.number().optional(),
    weight_unit: z.string().optional(),
    dimensions: z.object({ length: z.number().int(), width: z.number().int(), height: z.number().int() }).optional(),
  })
  .meta({ id: 'AvailableService', examples: [AVAILABLE_SERVICE_EXAMPLE] });
export type AvailableService = z.infer<typeof AvailableService>;

export const FareClassMetadata = z
  .object({
    seat_selection_allowed: z.boolean(),
    seat_selection_fee: DecimalString.nullable().describe('null or "0" means free.'),
    seat_selection_currency: CurrencyCode.nullable(),
    extra_legroom: z.boolean(),
    carry_on_bags: z.number().int().min(0),
    checked_bags: z.number().int().min(0),
    checked_bags_paid: z.boolean(),
    changes_allowed: z.boolean(),
    change_penalty_amount: DecimalString.nullable(),
    change_penalty_currency: CurrencyCode.nullable(),
    refunds_allowed: z.boolean(),
    refund_penalty_amount: DecimalString.nullable(),
    refund_penalty_currency: CurrencyCode.nullable(),
    boarding_priority: z.enum(['last', 'standard', 'early', 'priority']),
  })
  .meta({ id: 'FareClassMetadata', examples: [FARE_CLASS_METADATA_EXAMPLE] });
export type FareClassMetadata = z.infer<typeof FareClassMetadata>;

export const PrivateFare = z.object({
  corporate_code: z.string().optional(),
  tour_code: z.string().optional(),
  tracking_reference: z.string().optional(),
});

/**
 * Compiled once: zod's generated fast path checks a valid offer several times faster than its parser, and
 * an invalid one falls back to that parser, so the issues reported are the same.
 */
export const Offer = z.compile(
  z
    .object({
      id: z.string(),
      provider_id: z.string(),
      created_at: UtcDateTime.optional(),
      updated_at: UtcDateTime.optional(),
      expires_at: UtcDateTime.describe('A booking must be created before it.'),
      total_amount: DecimalString,
      total_currency: CurrencyCode,
      base_amount: DecimalString.nullable(),
      base_currency: CurrencyCode.nullable(),
      tax_amount: DecimalString.nullable(),
      tax_currency: CurrencyCode.nullable(),
      total_emissions_kg: z.string().regex(/^\d+$/).nullable(),
      passenger_identity_documents_required: z.boolean(),
      supported_passenger_identity_document_types: z.array(z.string()),
      supported_loyalty_programmes: z.array(z.string()).describe('Airline IATA codes.'),
      owner: Carrier.describe('The airline selling the offer.'),
      passengers: z.array(OfferPassenger).min(1),
      slices: z.array(Slice).min(1),
      conditions: Conditions,
      payment_requirements: z.object({
        requires_instant_payment: z.boolean(),
        payment_required_by: UtcDateTime.nullable(),
        price_guarantee_expires_at: UtcDateTime.nullable(),
      }),
      private_fares: z.array(PrivateFare).optional(),
      available_services: z.array(AvailableService).optional(),
      fare_class_metadata: FareClassMetadata.nullable().optional(),
      raw_offer: z.record(z.string(), z.unknown()).optional().describe("The provider's own offer, as it was given."),
    })
    .superRefine((offer, context) => {
      // Every amount keeps exactly the minor units of its currency.
      checkMinorUnits(context, 'total_amount', offer.total_amount, offer.total_currency);
      checkMinorUnits(context, 'base_amount', offer.base_amount, offer.base_currency);
      checkMinorUnits(context, 'tax_amount', offer.tax_amount, offer.tax_currency);
      offer.available_services?.forEach((service, index) =>
        checkMinorUnits(context, `available_services.${index}.total_amount`, service.total_amount, service.total_currency),
      );
    })
    .meta({ id: 'Offer', description: "A provider's offer, normalized: the same shape for every provider.", examples: [OFFER_EXAMPLE] }),
);
export type Offer = z.infer<typeof Offer>;

/** The issue of an amount not written in exactly its currency's minor units, or beyond the bound of every amount. */
function checkMinorUnits(context: z.RefinementCtx, path: string, amount: string | null | undefined, currency: string | null | undefined): void {
  if (amount == null || currency == null) return;
  const digits = minorUnits(currency);
  if (digits === undefined) {
    context.addIssue({ code: 'custom', path: [path], message: `${currency} is not an ISO 4217 currency` });
  } else if ((amount.split('.')[1] ?? '').length !== digits) {
    context.addIssue({ code: 'custom', path: [path], message: `${amount} must have ${digits} decimal places in ${currency}` });
  } else {
    const tooLarge = amountBoundIssue(amount, currency, [path]);
    if (tooLarge) context.addIssue(tooLarge);
  }
}

export const SeatInfo = z.object({
  seat_number: z.string(),
  row: z.string(),
  column: z.string(),
  is_available: z.boolean(),
  is_occupied: z.boolean(),
  is_blocked: z.boolean(),
  seat_type: z.string().describe('window, middle or aisle.'),
  disclosures: z.array(z.string()),
});

export const SeatPrice = z.object({ amount: z.number(), currency: CurrencyCode });

export const SeatMap = z
  .object({
    offer_id: z.string(),
    segment_id: z.string(),
    seat_map: z.record(z.string(), SeatInfo).describe('Keyed by seat number.'),
    pricing: z.record(z.string(), SeatPrice).describe('Keyed by seat number; seats without a price are free.'),
  })
  .meta({ id: 'SeatMap', description: 'The seats of one segment of an offer.', examples: [SEAT_MAP_EXAMPLE] });
export type SeatMap = z.infer<typeof SeatMap>;

export const PricingResult = z
  .object({
    offer: Offer,
    price_changed: z.boolean(),
    previous_total_amount: DecimalString,
  })
  .meta({
    id: 'PricingResult',
    description: 'The offer as the provider prices it now; a changed price is said, never hidden.',
    examples: [PRICING_RESULT_EXAMPLE],
  });
export type PricingResult = z.infer<typeof PricingResult>;

export const OfferPassengerMapping = z
  .strictObject({
    user_passenger_id: z.uuid().describe("One of the traveler's saved passengers."),
    provider_passenger_id: z.string().min(1).describe('The id of a passenger inside the offer (its `passengers[].id`).'),
  })
  .meta({ id: 'OfferPassengerMapping', examples: [OFFER_PASSENGER_MAPPING_EXAMPLE] });
export type OfferPassengerMapping = z.infer<typeof OfferPassengerMapping>;

export const SaveOfferPassengersRequest = z
  .strictObject({ passengers: z.array(OfferPassengerMapping).min(1).max(9) })
  .meta({ id: 'SaveOfferPassengersRequest', examples: [{ passengers: [OFFER_PASSENGER_MAPPING_EXAMPLE] }] });

export const PassengerUpdateRequest = z
  .strictObject({
    passenger_id: z.string().min(1).optional().describe('The passenger inside the offer; required by provider_a.'),
    first_name: z.string().trim().min(1).max(100).optional(),
    middle_name: z.string().trim().max(100).optional(),
    last_name: z.string().trim().min(1).max(100).optional(),
    date_of_birth: z.iso.date().optional(),
    gender: z.enum(['male', 'female']).optional(),
    known_traveler_number: z.string().regex(/^[A-Za-z0-9]{5,25}$/, '5 to 25 letters and digits').optional(),
    loyalty_programme_accounts: z
      .array(z.strictObject({ airline_iata_code: z.string().regex(/^[A-Z0-9]{2}$/), account_number: z.string().min(1).max(50) }))
      .optional(),
    identity_documents: z
      .array(
        z.strictObject({
          expires_on: z.iso.date(),
          issuing_country_code: z.string().regex(/^[A-Z]{2}$/),
          type: z.enum(['passport', 'tax_id', 'known_traveler_number', 'passenger_redress_number']),
          unique_identifier: z.string().min(3).max(50),
        }),
      )
      .optional(),
  })
  .meta({ id: 'PassengerUpdateRequest', description: 'Empty fields are ignored.', examples: [PASSENGER_UPDATE_EXAMPLE] });
export type PassengerUpdateRequest = z.infer<typeof PassengerUpdateRequest>;

export const OfferPassengerDetails = OfferPassenger.extend({
  given_name: z.string().nullable(),
  family_name: z.string().nullable(),
  loyalty_programme_accounts: z.array(z.object({ airline_iata_code: z.string(), account_number: z.string() })),
}).meta({ id: 'OfferPassenger', description: "One of the offer's passengers, as the provider now holds it.", examples: [OFFER_PASSENGER_EXAMPLE] });
export type OfferPassengerDetails = z.infer<typeof OfferPassengerDetails>;
