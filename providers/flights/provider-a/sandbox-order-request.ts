/**
 * What provider_a's sandbox reads from a flight-order request and an issuance request: only the fields its
 * rules look at, loosely, so that the rest of a priced offer passes through untouched. A request without
 * them is 400 MANDATORY DATA MISSING pointing at the first missing field.
 */
import { z } from 'zod';

const Money = z.string().regex(/^\d+(\.\d+)?$/);

const AdditionalServices = z.looseObject({
  chargeableCheckedBags: z.looseObject({ quantity: z.number().int() }).optional(),
  chargeableSeatNumber: z.string().optional(),
});

export const OrderedOffer = z.looseObject({
  lastTicketingDate: z.string().optional(),
  lastTicketingDateTime: z.string().optional(),
  itineraries: z
    .array(z.looseObject({ segments: z.array(z.looseObject({ id: z.string(), number: z.string(), carrierCode: z.string(), aircraft: z.looseObject({ code: z.string() }).optional() })).min(1) }))
    .min(1),
  price: z.looseObject({ currency: z.string(), grandTotal: Money, additionalServices: z.array(z.looseObject({ amount: Money, type: z.string() })).optional() }),
  validatingAirlineCodes: z.array(z.string()).optional(),
  travelerPricings: z
    .array(
      z.looseObject({
        travelerId: z.string(),
        travelerType: z.string(),
        fareDetailsBySegment: z.array(z.looseObject({ segmentId: z.string(), brandedFare: z.string().optional(), additionalServices: AdditionalServices.optional() })).min(1),
      }),
    )
    .min(1),
});
export type OrderedOffer = z.infer<typeof OrderedOffer>;

/**
 * The partner's balance as the form of payment. Amadeus Self-Service takes no payment with the order (its
 * tickets go through a consolidator); the `ACCOUNT` method with an `amount` and `currencyCode` is the
 * sandbox's way of being paid from the partner's balance (invented).
 */
const FormsOfPayment = z
  .array(z.looseObject({ other: z.looseObject({ method: z.literal('ACCOUNT'), flightOfferIds: z.array(z.string()).optional(), amount: Money, currencyCode: z.string() }) }))
  .min(1);

export const OrderRequest = z.looseObject({
  data: z.looseObject({
    type: z.literal('flight-order'),
    flightOffers: z.array(OrderedOffer).length(1),
    travelers: z
      .array(
        z.looseObject({
          id: z.string(),
          dateOfBirth: z.string(),
          name: z.looseObject({ firstName: z.string(), lastName: z.string() }),
          documents: z.array(z.looseObject({ documentType: z.string(), number: z.string() })).optional(),
        }),
      )
      .min(1),
    ticketingAgreement: z.looseObject({ option: z.enum(['CONFIRM', 'DELAY_TO_CANCEL', 'DELAY_TO_QUEUE']), delay: z.string().optional() }).optional(),
    formOfPayments: FormsOfPayment.optional(),
  }),
});
export type OrderRequest = z.infer<typeof OrderRequest>;

/** Paying a held order: its issuance (invented path, see sandbox-order-desk.ts). */
export const IssuanceRequest = z.looseObject({ data: z.looseObject({ formOfPayments: FormsOfPayment }) });

/** The JSON pointer of the first missing or malformed field. */
export function pointerOf(error: z.ZodError): string {
  return `/${(error.issues[0]?.path ?? []).map(String).join('/')}`;
}
