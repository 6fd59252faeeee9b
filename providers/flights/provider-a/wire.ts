/**
 * provider_a's native offer (modelled on Amadeus Self-Service flight-offers), as zod. Its ids ("1") are
 * unique only within one answer; money is decimal strings; times are local without offset.
 */
import { z } from 'zod';

const Money = z.string().regex(/^\d+(\.\d+)?$/, 'a decimal amount as a string, such as "96.40"');
const Currency = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as GBP');
const LocalTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'a local time without offset, such as 2026-06-01T07:15:00');

const Endpoint = z.looseObject({ iataCode: z.string().regex(/^[A-Z]{3}$/), terminal: z.string().optional(), at: LocalTime });

export const WireSegment = z.looseObject({
  id: z.string(),
  departure: Endpoint,
  arrival: Endpoint,
  carrierCode: z.string().regex(/^[A-Z0-9]{2}$/),
  number: z.string(),
  aircraft: z.looseObject({ code: z.string() }).optional(),
  operating: z.looseObject({ carrierCode: z.string().regex(/^[A-Z0-9]{2}$/) }).optional(),
  duration: z.string().optional(),
  numberOfStops: z.number().int().min(0).optional(),
  co2Emissions: z.array(z.looseObject({ weight: z.number().int().min(0), weightUnit: z.string(), cabin: z.string().optional() })).optional(),
});

const Bags = z.looseObject({ quantity: z.number().int().min(0).optional(), weight: z.number().optional(), weightUnit: z.string().optional() });

export const WireFareDetail = z.looseObject({
  segmentId: z.string(),
  cabin: z.enum(['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST']),
  fareBasis: z.string().optional(),
  brandedFare: z.string().optional(),
  brandedFareLabel: z.string().optional(),
  class: z.string().optional(),
  includedCheckedBags: Bags.optional(),
  includedCabinBags: Bags.optional(),
  /** Paid extras already chosen for this traveler (their price is in the offer's `price.additionalServices`). */
  additionalServices: z
    .looseObject({ chargeableCheckedBags: z.looseObject({ quantity: z.number().int().min(0) }).optional(), chargeableSeatNumber: z.string().optional() })
    .optional(),
  amenities: z
    .array(z.looseObject({ description: z.string(), isChargeable: z.boolean(), amenityType: z.string().optional() }))
    .optional(),
});

export const WireOffer = z.looseObject({
  type: z.literal('flight-offer'),
  id: z.string(),
  source: z.string().optional(),
  instantTicketingRequired: z.boolean().optional(),
  lastTicketingDate: z.iso.date().optional(),
  lastTicketingDateTime: z.string().optional(),
  numberOfBookableSeats: z.number().int().min(0).optional(),
  itineraries: z.array(z.looseObject({ duration: z.string().optional(), segments: z.array(WireSegment).min(1) })).min(1),
  price: z.looseObject({
    currency: Currency,
    total: Money,
    base: Money,
    grandTotal: Money,
    fees: z.array(z.looseObject({ amount: Money, type: z.string() })).optional(),
    /** Paid extras already chosen (bags, seats): in `grandTotal`, not in `total`. */
    additionalServices: z.array(z.looseObject({ amount: Money, type: z.string() })).optional(),
  }),
  pricingOptions: z.looseObject({ fareType: z.array(z.string()).optional() }).optional(),
  validatingAirlineCodes: z.array(z.string().regex(/^[A-Z0-9]{2}$/)).min(1),
  travelerPricings: z
    .array(
      z.looseObject({
        travelerId: z.string(),
        travelerType: z.enum(['ADULT', 'CHILD', 'SENIOR', 'YOUNG', 'HELD_INFANT', 'SEATED_INFANT', 'STUDENT']),
        price: z.looseObject({ currency: Currency, total: Money, base: Money.optional() }),
        fareDetailsBySegment: z.array(WireFareDetail).min(1),
      }),
    )
    .min(1),
});
export type WireOffer = z.infer<typeof WireOffer>;

const FareRule = z.looseObject({
  category: z.enum(['REFUND', 'EXCHANGE', 'REVALIDATION', 'REISSUE']),
  notApplicable: z.boolean().optional(),
  maxPenaltyAmount: Money.optional(),
});

/** The answer of flight-offers pricing with `include=bags,detailed-fare-rules`. */
export const WirePricing = z.looseObject({
  data: z.looseObject({
    type: z.literal('flight-offers-pricing'),
    flightOffers: z.array(WireOffer).min(1),
    bookingRequirements: z
      .looseObject({
        travelerRequirements: z.array(z.looseObject({ travelerId: z.string(), documentRequired: z.boolean().optional() })).optional(),
      })
      .optional(),
  }),
  included: z
    .looseObject({
      bags: z
        .record(
          z.string(),
          z.looseObject({
            quantity: z.number().int().min(0),
            name: z.string(),
            price: z.looseObject({ amount: Money, currencyCode: Currency }),
            segmentIds: z.array(z.string()),
            travelerIds: z.array(z.string()),
          }),
        )
        .optional(),
      'detailed-fare-rules': z
        .record(z.string(), z.looseObject({ fareBasis: z.string().optional(), segmentId: z.string(), rules: z.array(FareRule).optional() }))
        .optional(),
    })
    .optional(),
});
export type WirePricing = z.infer<typeof WirePricing>;

/** provider_a's error body. */
export const WireErrors = z.looseObject({
  errors: z.array(z.looseObject({ status: z.number().optional(), code: z.number().optional(), title: z.string().optional() })),
});

export const WireSeatMaps = z.looseObject({
  data: z.array(
    z.looseObject({
      type: z.literal('seatmap'),
      segmentId: z.string(),
      decks: z.array(
        z.looseObject({
          deckType: z.string(),
          seats: z.array(
            z.looseObject({
              cabin: z.string().optional(),
              number: z.string().regex(/^\d{1,3}[A-Z]$/),
              characteristicsCodes: z.array(z.string()).default([]),
              travelerPricing: z.array(
                z.looseObject({
                  travelerId: z.string(),
                  seatAvailabilityStatus: z.enum(['AVAILABLE', 'BLOCKED', 'OCCUPIED']),
                  price: z.looseObject({ currency: Currency, total: Money }).optional(),
                }),
              ),
            }),
          ),
        }),
      ),
    }),
  ),
});
export type WireSeatMaps = z.infer<typeof WireSeatMaps>;

/** provider_a's error body, with the field an error is about (`source.pointer`) and its words (`detail`). */
export const WireOrderErrors = z.looseObject({
  errors: z.array(
    z.looseObject({
      status: z.number().optional(),
      code: z.number().optional(),
      title: z.string().optional(),
      detail: z.string().optional(),
      source: z.looseObject({ pointer: z.string().optional() }).optional(),
    }),
  ),
});
export type WireOrderErrors = z.infer<typeof WireOrderErrors>;

/**
 * Its flight order, as created, retrieved or issued: the offer as booked (its `grandTotal` includes the
 * chosen seats and bags, each seat under its traveler's `additionalServices.chargeableSeatNumber`), the
 * record locator in `associatedRecords`, e-tickets once issued. `ticketingAgreement.dateTime` and
 * `cancellation` are its sandbox's additions (see sandbox-order-document.ts).
 */
export const WireOrder = z.looseObject({
  data: z.looseObject({
    type: z.literal('flight-order'),
    id: z.string().min(1),
    associatedRecords: z.array(z.looseObject({ reference: z.string(), creationDateTime: LocalTime.optional() })).default([]),
    flightOffers: z
      .array(
        z.looseObject({
          price: z.looseObject({ currency: Currency, grandTotal: Money }),
          travelerPricings: z.array(
            z.looseObject({
              travelerId: z.string(),
              fareDetailsBySegment: z.array(
                z.looseObject({ segmentId: z.string(), additionalServices: z.looseObject({ chargeableSeatNumber: z.string().optional() }).optional() }),
              ),
            }),
          ),
        }),
      )
      .length(1),
    ticketingAgreement: z.looseObject({ option: z.string(), delay: z.string().optional(), dateTime: z.string().optional() }).optional(),
    tickets: z.array(z.looseObject({ documentNumber: z.string(), documentStatus: z.string().optional(), travelerId: z.string() })).default([]),
    cancellation: z
      .looseObject({ dateTime: z.string(), refund: z.looseObject({ amount: Money, currencyCode: Currency }).nullable() })
      .optional(),
  }),
});
export type WireOrder = z.infer<typeof WireOrder>;
