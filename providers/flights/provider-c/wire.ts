/**
 * provider_c's native offer (IATA NDC 21.3 OfferPrice, rendered as JSON with IATA element names, money as
 * `{amount, curCode}` as Sabre's NDC JSON writes it): the PricedOffer with the DataLists it refers to,
 * so that it is self-contained.
 */
import { z } from 'zod';

const Amount = z.looseObject({
  amount: z.string().regex(/^\d+(\.\d+)?$/, 'a decimal amount as a string, such as "626.81"'),
  curCode: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as GBP'),
});
const LocalTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'a local time without offset');
const Point = z.looseObject({ IATA_LocationCode: z.string().regex(/^[A-Z]{3}$/), AircraftScheduledDateTime: LocalTime });

const Restriction = z.looseObject({
  AllowedModificationInd: z.boolean(),
  Fee: z.looseObject({ Amount }).optional(),
  JourneyStageCode: z.string().optional(),
});

export const WireOffer = z.looseObject({
  OfferID: z.string().min(1),
  OwnerCode: z.string().regex(/^[A-Z0-9]{2}$/),
  OfferExpirationTimeLimitDateTime: z.iso.datetime({ offset: true }),
  TotalPrice: z.looseObject({ TotalAmount: Amount }),
  JourneyOverview: z
    .looseObject({ JourneyPriceClass: z.array(z.looseObject({ PaxJourneyRefID: z.string(), PriceClassRefID: z.string() })) })
    .optional(),
  BaggageAssociations: z
    .array(z.looseObject({ BaggageAllowanceRefID: z.string(), PaxRefID: z.array(z.string()), PaxJourneyRefID: z.string().optional() }))
    .optional(),
  OfferItem: z
    .array(
      z.looseObject({
        OfferItemID: z.string(),
        PaymentTimeLimitDateTime: z.iso.datetime({ offset: true }).optional(),
        Price: z.looseObject({
          BaseAmount: Amount,
          TaxSummary: z.looseObject({ TotalTaxAmount: Amount }).optional(),
          TotalAmount: Amount,
        }),
        FareDetail: z.looseObject({
          PaxRefID: z.array(z.string()).min(1),
          FareComponent: z.array(
            z.looseObject({
              FareBasisCode: z.string().optional(),
              PaxSegmentRefID: z.string().optional(),
              PriceClassRefID: z.string().optional(),
              CancelRestrictions: Restriction.optional(),
              ChangeRestrictions: z.array(Restriction).optional(),
            }),
          ),
        }),
      }),
    )
    .min(1),
  DataLists: z.looseObject({
    PaxList: z.array(z.looseObject({ PaxID: z.string(), PTC: z.string() })).min(1),
    PaxJourneyList: z.array(z.looseObject({ PaxJourneyID: z.string(), Duration: z.string().optional(), PaxSegmentRefID: z.array(z.string()).min(1) })).min(1),
    PaxSegmentList: z.array(
      z.looseObject({
        PaxSegmentID: z.string(),
        DatedMarketingSegmentRefId: z.string(),
        MarketingCarrierRBD_Code: z.string().optional(),
        CabinTypeCode: z.string().optional(),
        CabinTypeName: z.string().optional(),
      }),
    ),
    DatedMarketingSegmentList: z.array(
      z.looseObject({
        DatedMarketingSegmentId: z.string(),
        CarrierDesigCode: z.string().regex(/^[A-Z0-9]{2}$/),
        MarketingCarrierFlightNumberText: z.string(),
        Dep: Point,
        Arrival: Point,
        DatedOperatingSegmentRefId: z.string().optional(),
      }),
    ),
    DatedOperatingSegmentList: z
      .array(z.looseObject({ DatedOperatingSegmentId: z.string(), CarrierDesigCode: z.string(), OperatingCarrierFlightNumberText: z.string().optional(), Duration: z.string().optional(), AircraftTypeCode: z.string().optional() }))
      .optional(),
    BaggageAllowanceList: z
      .array(
        z.looseObject({
          BaggageAllowanceID: z.string(),
          TypeCode: z.enum(['Checked', 'CarryOn']),
          PieceAllowance: z.looseObject({ TotalQty: z.number().int().min(0) }).optional(),
        }),
      )
      .optional(),
    PriceClassList: z.array(z.looseObject({ PriceClassID: z.string(), Name: z.string() })).optional(),
    ServiceDefinitionList: z.array(z.looseObject({ ServiceDefinitionID: z.string(), Name: z.string(), Desc: z.array(z.string()).optional() })).optional(),
  }),
});
export type WireOffer = z.infer<typeof WireOffer>;
