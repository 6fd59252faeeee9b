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

/**
 * What its system answers: NDC answers business errors with HTTP 200 and `Errors` (a code, the airline's
 * text and a type such as NotProcessed), sometimes beside what was done so far (OrderChange's 727 names
 * the order); warnings (711: the price changed) come beside a good answer.
 */
const Message = z.looseObject({ Code: z.string(), DescText: z.string().optional(), TypeCode: z.string().optional() });

export const WireErrors = z.looseObject({
  Errors: z.array(Message).min(1),
  Order: z.looseObject({ OrderID: z.string() }).optional(),
});
export type WireErrors = z.infer<typeof WireErrors>;

/** OfferPriceRS: the offer as the airline prices it now, whole (DataLists included). */
export const WireOfferPriceAnswer = z.looseObject({
  PricedOffer: WireOffer,
  Warning: z.array(Message).optional(),
});

const SeatStatus = z.enum(['F', 'O', 'Z']);

/** SeatAvailabilityRS: seat prices as à la carte offer items, one seat map per PaxSegment. */
export const WireSeatAvailability = z.looseObject({
  ALaCarteOffer: z.looseObject({
    OfferID: z.string(),
    ALaCarteOfferItem: z.array(
      z.looseObject({ OfferItemID: z.string(), UnitPrice: z.looseObject({ TotalAmount: Amount }), ServiceDefinitionRefID: z.string().optional() }),
    ),
  }),
  SeatMap: z.array(
    z.looseObject({
      PaxSegmentRefID: z.string(),
      CabinCompartment: z.array(
        z.looseObject({
          DeckCode: z.string().optional(),
          FirstRowNumber: z.number().int(),
          LastRowNumber: z.number().int(),
          CabinTypeCode: z.string().optional(),
          SeatColumn: z.array(z.looseObject({ ColumnID: z.string().regex(/^[A-Z]$/), SeatCharacteristicCode: z.string().optional() })),
          CabinComponent: z.array(z.looseObject({ CabinComponentTypeCode: z.string(), ColumnID: z.string().optional() })).optional(),
          SeatRow: z.array(
            z.looseObject({
              RowNumber: z.number().int().min(1),
              RowCharacteristicCode: z.string().optional(),
              Seat: z.array(
                z.looseObject({
                  ColumnID: z.string().regex(/^[A-Z]$/),
                  OccupationStatusCode: SeatStatus,
                  SeatCharacteristicCode: z.array(z.string()).default([]),
                  OfferItemRefID: z.string().optional(),
                }),
              ),
            }),
          ),
        }),
      ),
    }),
  ),
});
export type WireSeatAvailability = z.infer<typeof WireSeatAvailability>;

/** A seat the order holds: its PaxSegment and its place, as SeatAvailabilityRS numbers them. */
const SeatAssignment = z.looseObject({ PaxSegmentRefID: z.string(), Seat: z.looseObject({ RowNumber: z.number().int().min(1), ColumnID: z.string().regex(/^[A-Z]$/) }) });

/**
 * What a cancelled order item gives back (VS OrderChange cancel samples): `DueByAirlineAmount` is the
 * refund owed to the seller; zero on a fare that refunds nothing.
 */
const PriceDifferential = z.looseObject({
  DifferentialTypeCode: z.string(),
  DiffPrice: z.looseObject({ DueByAirlineAmount: Amount }),
});

/**
 * OrderViewRS: the order (OPENED: held, or paid with its tickets; CLOSED: cancelled, each item with what
 * it refunds). `PaymentTimeLimitDateTime` while it waits for payment.
 */
export const WireOrderView = z.looseObject({
  Order: z.looseObject({
    OrderID: z.string().min(1),
    OwnerCode: z.string(),
    StatusCode: z.enum(['OPENED', 'CLOSED']),
    TotalPrice: z.looseObject({ TotalAmount: Amount }),
    PaymentTimeLimitDateTime: z.iso.datetime({ offset: true }).optional(),
    CancellationDateTime: z.iso.datetime({ offset: true }).optional(),
    OrderItem: z.array(
      z.looseObject({
        OrderItemID: z.string(),
        PriceDifferential: PriceDifferential.optional(),
        Service: z.array(
          z.looseObject({
            ServiceID: z.string(),
            PaxRefID: z.string(),
            StatusCode: z.string(),
            BookingRef: z.looseObject({ BookingID: z.string() }).optional(),
            SeatAssignment: SeatAssignment.optional(),
          }),
        ),
      }),
    ),
  }),
  TicketDocInfo: z
    .array(z.looseObject({ PaxRefID: z.string(), TicketDocument: z.array(z.looseObject({ TicketDocNbr: z.string(), Type: z.string().optional() })).min(1) }))
    .optional(),
});
export type WireOrderView = z.infer<typeof WireOrderView>;

/** OrderReshopRS for a reprice: no change, or the order's new total. */
export const WireOrderReshop = z.looseObject({
  Order: z.looseObject({ OrderID: z.string() }),
  ReshopResults: z
    .looseObject({
      NoChangeInd: z.literal(true).optional(),
      RepricedOffer: z.looseObject({ TotalPrice: z.looseObject({ TotalAmount: Amount }) }).optional(),
    })
    .refine((results) => (results.NoChangeInd === true) !== (results.RepricedOffer !== undefined), 'either NoChangeInd or RepricedOffer'),
});
export type WireOrderReshop = z.infer<typeof WireOrderReshop>;

/** OrderReshopRS for a cancel: the offer to accept (OrderChange AcceptCancelledOffer) and what each item refunds. */
export const WireCancelQuote = z.looseObject({
  Order: z.looseObject({ OrderID: z.string() }),
  ReshopResults: z.looseObject({
    ReshopOffers: z
      .array(
        z.looseObject({
          OfferID: z.string().min(1),
          OwnerCode: z.string(),
          DeleteOrderItem: z.array(z.looseObject({ OrderItemRefID: z.string(), PriceDifferential })),
        }),
      )
      .min(1),
  }),
});
export type WireCancelQuote = z.infer<typeof WireCancelQuote>;
