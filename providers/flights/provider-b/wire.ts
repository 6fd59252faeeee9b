/**
 * provider_b's native offer (modelled on Duffel v2 offers), as zod: what a partner sends verbatim to
 * create an offer, and what the sandbox serves. Unknown keys are kept (the native object is stored as
 * `raw_offer`); the fields the mapping reads are required and checked.
 */
import { z } from 'zod';

const Money = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal amount as a string, such as "512.46"');
const Currency = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as GBP');
const LocalTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'a local time without offset, such as 2026-06-01T08:25:00');

const Place = z.looseObject({
  iata_code: z.string().regex(/^[A-Z]{3}$/),
  name: z.string().optional(),
  city_name: z.string().nullable().optional(),
});

const Airline = z.looseObject({ iata_code: z.string().regex(/^[A-Z0-9]{2}$/), name: z.string().optional() });

const Penalty = z.looseObject({ allowed: z.boolean(), penalty_amount: Money.nullable().optional(), penalty_currency: Currency.nullable().optional() });

export const WireSegment = z.looseObject({
  id: z.string().startsWith('seg_'),
  origin: Place,
  destination: Place,
  origin_terminal: z.string().nullable().optional(),
  destination_terminal: z.string().nullable().optional(),
  departing_at: LocalTime,
  arriving_at: LocalTime,
  duration: z.string().nullable().optional(),
  marketing_carrier: Airline,
  marketing_carrier_flight_number: z.string(),
  operating_carrier: Airline,
  operating_carrier_flight_number: z.string().nullable().optional(),
  aircraft: z.looseObject({ iata_code: z.string(), name: z.string().optional() }).nullable().optional(),
  passengers: z.array(
    z.looseObject({
      passenger_id: z.string().startsWith('pas_'),
      cabin_class: z.enum(['economy', 'premium_economy', 'business', 'first']),
      cabin_class_marketing_name: z.string().optional(),
      fare_basis_code: z.string().nullable().optional(),
      baggages: z.array(z.looseObject({ type: z.enum(['checked', 'carry_on']), quantity: z.number().int().min(0) })),
    }),
  ),
});

export const WireSlice = z.looseObject({
  id: z.string().startsWith('sli_'),
  origin: Place,
  destination: Place,
  duration: z.string().nullable().optional(),
  fare_brand_name: z.string().nullable().optional(),
  conditions: z.looseObject({
    change_before_departure: Penalty.nullable().optional(),
    advance_seat_selection: z.boolean().nullable().optional(),
    priority_boarding: z.boolean().nullable().optional(),
    priority_check_in: z.boolean().nullable().optional(),
  }),
  segments: z.array(WireSegment).min(1),
});

export const WireService = z.looseObject({
  id: z.string().startsWith('ase_'),
  type: z.string(),
  total_amount: Money,
  total_currency: Currency,
  maximum_quantity: z.number().int().min(0).optional(),
  passenger_ids: z.array(z.string()),
  segment_ids: z.array(z.string()),
  metadata: z
    .looseObject({
      type: z.string().optional(),
      maximum_weight_kg: z.number().nullable().optional(),
      maximum_length_cm: z.number().int().nullable().optional(),
      maximum_depth_cm: z.number().int().nullable().optional(),
      maximum_height_cm: z.number().int().nullable().optional(),
    })
    .optional(),
});

export const WireOffer = z.looseObject({
  id: z.string().startsWith('off_'),
  created_at: z.iso.datetime({ offset: true }).optional(),
  updated_at: z.iso.datetime({ offset: true }).optional(),
  expires_at: z.iso.datetime({ offset: true }),
  total_amount: Money,
  total_currency: Currency,
  base_amount: Money.nullable().optional(),
  base_currency: Currency.nullable().optional(),
  tax_amount: Money.nullable().optional(),
  tax_currency: Currency.nullable().optional(),
  total_emissions_kg: z.string().regex(/^\d+$/).nullable().optional(),
  passenger_identity_documents_required: z.boolean(),
  supported_passenger_identity_document_types: z.array(z.string()).optional(),
  supported_loyalty_programmes: z.array(z.string()).optional(),
  owner: Airline,
  passengers: z
    .array(
      z.looseObject({
        id: z.string().startsWith('pas_'),
        type: z.enum(['adult', 'child', 'infant_without_seat']).nullable().optional(),
        age: z.number().int().nullable().optional(),
      }),
    )
    .min(1),
  slices: z.array(WireSlice).min(1),
  conditions: z.looseObject({
    refund_before_departure: Penalty.nullable().optional(),
    change_before_departure: Penalty.nullable().optional(),
  }),
  payment_requirements: z.looseObject({
    requires_instant_payment: z.boolean(),
    payment_required_by: z.iso.datetime({ offset: true }).nullable().optional(),
    price_guarantee_expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  }),
  available_services: z.array(WireService).nullable().optional(),
  private_fares: z
    .array(z.looseObject({ corporate_code: z.string().optional(), tour_code: z.string().optional(), tracking_reference: z.string().optional() }))
    .optional(),
});
export type WireOffer = z.infer<typeof WireOffer>;

const WireSeatService = z.looseObject({
  id: z.string().startsWith('ase_'),
  passenger_id: z.string(),
  total_amount: Money,
  total_currency: Currency,
});

const WireElement = z.union([
  z.looseObject({
    type: z.literal('seat'),
    designator: z.string().regex(/^\d{1,3}[A-Z]$/),
    disclosures: z.array(z.string()).default([]),
    available_services: z.array(WireSeatService).default([]),
  }),
  z.looseObject({ type: z.enum(['exit_row', 'lavatory', 'galley', 'closet', 'bassinet', 'empty', 'stairs']) }),
]);

export const WireSeatMap = z.looseObject({
  id: z.string(),
  segment_id: z.string(),
  slice_id: z.string(),
  cabins: z.array(
    z.looseObject({
      deck: z.number().int(),
      cabin_class: z.string(),
      aisles: z.number().int().min(1).max(2),
      wings: z.looseObject({ first_row_index: z.number().int(), last_row_index: z.number().int() }).nullable().optional(),
      rows: z.array(z.looseObject({ sections: z.array(z.looseObject({ elements: z.array(WireElement) })) })),
    }),
  ),
});
export type WireSeatMap = z.infer<typeof WireSeatMap>;

/** provider_b's error body. */
export const WireErrors = z.looseObject({
  errors: z.array(z.looseObject({ type: z.string().optional(), code: z.string().optional(), title: z.string().optional() })).min(1),
});

export const WireOfferPassenger = z.looseObject({
  id: z.string(),
  type: z.enum(['adult', 'child', 'infant_without_seat']).nullable().optional(),
  age: z.number().int().nullable().optional(),
  given_name: z.string().nullable().optional(),
  family_name: z.string().nullable().optional(),
  loyalty_programme_accounts: z.array(z.looseObject({ airline_iata_code: z.string(), account_number: z.string() })).optional(),
});

/** provider_b's order (Duffel's `ord_`): what the adapter reads of it. */
export const WireOrder = z.looseObject({
  id: z.string().startsWith('ord_'),
  type: z.enum(['instant', 'hold']),
  booking_reference: z.string().nullable(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  total_amount: Money,
  total_currency: Currency,
  passengers: z.array(z.looseObject({ id: z.string() })),
  services: z
    .array(
      z.looseObject({
        id: z.string(),
        type: z.string(),
        quantity: z.number().int(),
        passenger_ids: z.array(z.string()),
        segment_ids: z.array(z.string()),
        metadata: z.looseObject({ designator: z.string().optional() }).nullable().optional(),
      }),
    )
    .default([]),
  payment_status: z.looseObject({
    awaiting_payment: z.boolean(),
    payment_required_by: z.iso.datetime({ offset: true }).nullable().optional(),
    price_guarantee_expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  }),
  documents: z.array(z.looseObject({ type: z.string(), unique_identifier: z.string(), passenger_ids: z.array(z.string()).default([]) })).default([]),
  cancelled_at: z.iso.datetime({ offset: true }).nullable(),
});
export type WireOrder = z.infer<typeof WireOrder>;

/** provider_b's order cancellation (Duffel's `ore_`): a refund quote until confirmed. */
export const WireCancellation = z.looseObject({
  id: z.string().startsWith('ore_'),
  order_id: z.string(),
  refund_amount: Money.nullable(),
  refund_currency: Currency.nullable(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  confirmed_at: z.iso.datetime({ offset: true }).nullable(),
});
export type WireCancellation = z.infer<typeof WireCancellation>;

/** provider_b's payment of a held order. */
export const WirePayment = z.looseObject({ id: z.string(), amount: Money, currency: Currency });
