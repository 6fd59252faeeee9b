import { z } from 'zod';
import { PaymentMethod } from '../../core/payment-methods/schemas.js';
import { defineTool } from '../tool.js';

// The REST schema itself (camelCase, as the specification names its fields): one truth, and an agent that
// also reads the REST reference or a booking's `payment_method_id` sees the same card the same way.
const PaymentMethods = z.object({
  payment_methods: z.array(PaymentMethod).describe('The traveler’s saved payment methods, the default first, then the newest.'),
});

export const listPaymentMethods = defineTool({
  name: 'list_payment_methods',
  title: 'List the traveler’s saved payment methods',
  description:
    'Lists the cards (and wallets) the traveler has saved: network (brand), last four digits, expiry and which one is the default. ' +
    'Use it to ask the traveler which card to pay with, naming it by brand and last four, and to find the id to pass as payment_method_id. ' +
    'Card numbers are never available. An empty list means the traveler must add a card themselves in the partner’s app or website: ' +
    'an agent cannot add one. Needs the payments.read scope.',
  input: z.object({}),
  output: PaymentMethods,
  scopes: ['payments.read'],
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (_input, { actor, services }) => ({ payment_methods: await services.paymentMethods.list(actor.userId) }),
});
