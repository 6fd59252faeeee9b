/** The order requests provider_c's sandbox reads (NDC as JSON): what a seller sends, checked before any rule. */
import { z } from 'zod';
import { WireOffer } from './wire.js';

const Amount = z.looseObject({ amount: z.string().regex(/^\d+(\.\d+)?$/), curCode: z.string().regex(/^[A-Z]{3}$/) });
export const OrderRef = z.looseObject({ Order: z.looseObject({ OrderID: z.string().min(1) }) });

export const OrderCreateRequest = z.looseObject({
  PayloadAttributes: z.looseObject({ CorrelationID: z.string().min(1).max(64).optional() }).optional(),
  PricedOffer: WireOffer,
  CreateOrder: z.looseObject({
    AcceptSelectedQuotedOfferList: z.looseObject({
      SelectedPricedOffer: z
        .array(
          z.looseObject({
            OfferRefID: z.string(),
            OwnerCode: z.string().optional(),
            SelectedOfferItem: z.array(
              z.looseObject({
                OfferItemRefID: z.string(),
                PaxRefID: z.array(z.string()).min(1),
                SelectedALaCarteOfferItem: z.looseObject({ Qty: z.number().int().min(1) }).optional(),
                SelectedSeat: z.looseObject({ PaxSegmentRefID: z.string(), SeatRowNumber: z.number().int().min(1), ColumnID: z.string() }).optional(),
              }),
            ),
          }),
        )
        .min(1),
    }),
  }),
  DataLists: z.looseObject({
    PaxList: z.array(
      z.looseObject({
        PaxID: z.string(),
        Individual: z.looseObject({ GivenName: z.string().optional(), Surname: z.string().optional(), Birthdate: z.string().optional() }).optional(),
      }),
    ),
    ContactInfoList: z.array(z.looseObject({ ContactInfoID: z.string() })).optional(),
  }),
});
export type OrderCreateRequest = z.infer<typeof OrderCreateRequest>;

export const OrderReshopRequest = OrderRef.extend({
  UpdateOrder: z.looseObject({ CancelOrderRef: z.looseObject({ OrderRefID: z.string() }).optional() }).optional(),
});
export const OrderChangeRequest = OrderRef.extend({
  PaymentFunctions: z.looseObject({ PaymentProcessingDetails: z.looseObject({ Amount }) }).optional(),
  ChangeOrderChoice: z.looseObject({ AcceptCancelledOffer: z.looseObject({ OfferID: z.string(), OwnerCode: z.string().optional() }) }).optional(),
});

