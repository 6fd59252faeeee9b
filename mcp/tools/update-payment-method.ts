import { z } from 'zod';
import { BillingZip, CardholderName, PaymentMethod } from '../../core/payment-methods/schemas.js';
import { defineTool } from '../tool.js';

const UpdatePaymentMethodInput = z.object({
  payment_method_id: z.string().describe('The payment method’s id, from list_payment_methods.'),
  cardholder_name: CardholderName.nullable().optional().describe('The name as printed on the card, 1-100 characters; null clears it.'),
  billing_zip: BillingZip.nullable().optional().describe('The billing postal code, 3-10 letters, digits, spaces or dashes; null clears it.'),
});

export const updatePaymentMethod = defineTool({
  name: 'update_payment_method',
  title: 'Change a saved card’s cardholder name or billing ZIP',
  description:
    'Sets or clears the cardholder name and billing ZIP of one of the traveler’s saved cards, as the traveler states them (send only what ' +
    'changes; null clears). Cards carried over from the previous processor have neither and answer legacy_payment_method: the traveler must ' +
    'add the card again in the partner’s app. Adding a card, changing its number or deleting it is not possible here. Needs the payments.write scope.',
  input: UpdatePaymentMethodInput,
  output: PaymentMethod,
  scopes: ['payments.write'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: ({ payment_method_id, cardholder_name, billing_zip }, { actor, services }) =>
    services.paymentMethods.edit(actor.userId, payment_method_id, {
      ...(cardholder_name === undefined ? {} : { cardholderName: cardholder_name }),
      ...(billing_zip === undefined ? {} : { zip: billing_zip }),
    }),
});
