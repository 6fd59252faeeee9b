/**
 * Saved payment methods (specification: PaymentMethod, PaymentMethodEdit; decisions §8): one truth for
 * REST, the agent tools and the OpenAPI document. The service holds a card's network, last four digits,
 * expiry and default flag only; the card itself stays in the card vault. Field names are camelCase, as the
 * specification has them; vault references (`customerId`, `paymentMethodId`, `token`) are never shown.
 */
import { z } from 'zod';
import { CARD_BRANDS } from '../ports.js';

export const METHOD_TYPES = ['credit_card', 'apple_pay', 'google_pay', 'pay_later'] as const;

export const MethodType = z
  .enum(METHOD_TYPES)
  .describe('`credit_card`, or a wallet (`apple_pay`, `google_pay`) or pay-later kind carried over from the previous processor.');
export type MethodType = z.infer<typeof MethodType>;

export const CardBrand = z.enum(CARD_BRANDS).describe('The card network, lower case.');

export const ExpMonth = z.number().int().min(1).max(12).describe('Expiry month, 1-12.');
export const ExpYear = z.number().int().min(2024).max(2050).describe('Expiry year, four digits (2024-2050).');
export const Last4 = z
  .string()
  .regex(/^\d{4}$/, 'exactly four digits')
  .describe('The last four digits of the card number.');

const EXAMPLE = {
  id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  userId: '3c9a7e21-5b4d-4f8a-9c61-2e7d8b0a1f53',
  methodType: 'credit_card',
  last4: '4242',
  brand: 'visa',
  expMonth: 12,
  expYear: 2030,
  isDefault: true,
  createdAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
};

export const PaymentMethod = z
  .object({
    id: z.uuid().describe('The payment method’s id: the value to pass as `payment_method_id` when booking.'),
    userId: z.uuid().describe('The traveler it belongs to.'),
    methodType: MethodType,
    last4: Last4,
    brand: CardBrand,
    expMonth: ExpMonth,
    expYear: ExpYear,
    isDefault: z.boolean().describe('The traveler’s default payment method; at most one is.'),
    createdAt: z.iso.datetime({ offset: true }),
    updatedAt: z.iso.datetime({ offset: true }),
  })
  .meta({
    id: 'PaymentMethod',
    description: 'A saved payment method: its network, last four digits, expiry and default flag. The card number never leaves the card vault.',
    examples: [EXAMPLE],
  });
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** Letters of any script, spaces, hyphens, apostrophes and full stops, as embossed on a card. */
export const CardholderName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\p{L}\p{M} '’.-]+$/u, 'letters, spaces, hyphens, apostrophes and full stops only')
  .describe('The name on the card, 1-100 characters; null clears it.');

export const BillingZip = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/, '3 to 10 letters, digits, spaces or dashes')
  .describe('The billing postal code (ZIP), 3-10 letters, digits, spaces or dashes; null clears it.');

export const PaymentMethodEdit = z
  .strictObject({
    expMonth: ExpMonth.optional(),
    expYear: ExpYear.optional(),
    isDefault: z
      .boolean()
      .optional()
      .describe('true makes this the default (the previous default stops being one); false on the default leaves the traveler without one.'),
    cardholderName: CardholderName.nullable().optional().describe('The name on the card (vault-backed cards only); null clears it.'),
    zip: BillingZip.nullable().optional().describe('The billing ZIP (vault-backed cards only); null clears it.'),
  })
  .refine((edit) => Object.keys(edit).length > 0, { message: 'send at least one field to change', path: [] })
  .meta({
    id: 'PaymentMethodEdit',
    description:
      'The fields to change; those left out keep their values. `cardholderName` and `zip` are kept in the card vault and apply to vault-backed cards only (a legacy card answers 422 legacy_payment_method). A new card number is a new payment method.',
    examples: [{ expMonth: 9, expYear: 2031, isDefault: true }, { cardholderName: 'Ada Lovelace', zip: 'SW1A 1AA' }],
  });
export type PaymentMethodEdit = z.infer<typeof PaymentMethodEdit>;

export const FromTokenRequest = z
  .strictObject({
    vaultToken: z.uuid().describe('The card vault token id the hosted card fields made in this traveler’s session.'),
    isDefault: z.boolean().optional().describe('Make it the default. The traveler’s first card becomes the default unless this is false.'),
  })
  .meta({
    id: 'FromTokenRequest',
    description: 'A card-vault token to save as a payment method. The network, last four digits and expiry are read from the vault, never taken from the request.',
    examples: [{ vaultToken: '0e4c1f7a-2b3d-4e5f-8a9b-1c2d3e4f5a6b', isDefault: true }],
  });
export type FromTokenRequest = z.infer<typeof FromTokenRequest>;

export const TokenizationSession = z
  .object({
    vaultUrl: z.url().describe('The card vault’s origin: load the hosted card fields from it and post cards to it.'),
    sessionKey: z.string().describe('A short-lived key (10 minutes) that creates card tokens for this traveler only, sent as BT-API-KEY.'),
    expiresAt: z.iso.datetime({ offset: true }).describe('When the session key stops working.'),
    csrfToken: z.string().describe('Send it as x-csrf-token on this session’s changes (from-token, PUT, DELETE).'),
  })
  .meta({
    id: 'TokenizationSession',
    examples: [
      {
        vaultUrl: 'http://localhost:3001',
        sessionKey: 'key_session_8Jc2kP0aQ4vX9mT1rW6yZ3bN',
        expiresAt: '2026-11-23T10:25:00.000Z',
        csrfToken: 'c1.9f2b6a1e4d7c3b8a',
      },
    ],
  });
export type TokenizationSession = z.infer<typeof TokenizationSession>;

/** What the admin command imports: a card from the previous processor, with no vault token. */
export const LegacyImport = z.strictObject({
  user: z.string().min(1).describe('The traveler’s id or e-mail address.'),
  methodType: MethodType.default('credit_card'),
  brand: CardBrand,
  last4: Last4,
  expMonth: ExpMonth,
  expYear: ExpYear,
  isDefault: z.boolean().default(false),
  legacyReference: z.string().min(1).max(500).optional(),
});
export type LegacyImport = z.input<typeof LegacyImport>;
