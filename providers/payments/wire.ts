/**
 * The payment processor's native answers (Stripe's PaymentIntents dialect), as far as the adapter reads
 * them. Loose objects: Stripe adds fields over time, and an answer with more than we read is still one
 * we understand.
 */
import { z } from 'zod';

const MinorUnits = z.number().int().nonnegative();

export const WirePaymentIntentStatus = z.enum([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
]);

export const WireLastPaymentError = z.looseObject({
  type: z.string(),
  code: z.string().optional(),
  decline_code: z.string().optional(),
  message: z.string().optional(),
});

export const WirePaymentIntent = z.looseObject({
  id: z.string().startsWith('pi_'),
  object: z.literal('payment_intent'),
  amount: MinorUnits,
  amount_capturable: MinorUnits,
  amount_received: MinorUnits,
  currency: z.string().regex(/^[a-z]{3}$/i),
  status: WirePaymentIntentStatus,
  capture_method: z.string(),
  last_payment_error: WireLastPaymentError.nullable().optional(),
});
export type WirePaymentIntent = z.infer<typeof WirePaymentIntent>;

export const WireRefund = z.looseObject({
  id: z.string().startsWith('re_'),
  object: z.literal('refund'),
  amount: MinorUnits,
  currency: z.string(),
  payment_intent: z.string().nullable(),
  status: z.enum(['pending', 'requires_action', 'succeeded', 'failed', 'canceled']),
});
export type WireRefund = z.infer<typeof WireRefund>;

export const WireError = z.object({
  error: z.looseObject({
    type: z.string(),
    code: z.string().optional(),
    decline_code: z.string().optional(),
    param: z.string().optional(),
    message: z.string().optional(),
    payment_intent: WirePaymentIntent.optional(),
  }),
});
export type WireError = z.infer<typeof WireError>;
