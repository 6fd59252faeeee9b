/**
 * The card vault's own format (Basis Theory's dialect, decisions §8): what it takes and what it answers.
 * The sandbox parses requests with the request schemas; the adapter checks answers with the answer
 * schemas, which accept fields they do not know (a vault adds fields over time). Nothing here is the
 * service's shape: the adapter maps it to core's `VaultCard`.
 */
import { z } from 'zod';

/** The `type` of a validation problem, as the vault answers it. */
export const VALIDATION_PROBLEM_TYPE = 'https://docs.basistheory.com/docs/api/errors';
export const VALIDATION_PROBLEM_TITLE = 'One or more validation errors occurred.';

// ---- Requests -------------------------------------------------------------------------------------

const cardholderName = z
  .string({ error: 'Cardholder name must be a string.' })
  .min(1, 'Cardholder name must be between 1 and 100 characters.')
  .max(100, 'Cardholder name must be between 1 and 100 characters.');
const billingZip = z
  .string({ error: 'Billing zip must be a string.' })
  .regex(/^[A-Za-z0-9 -]{3,10}$/, 'Billing zip must be 3 to 10 letters, digits, spaces or dashes.');

/** Metadata is kept in clear: only these two details, never anything sensitive. */
export const WireMetadata = z.strictObject(
  { cardholder_name: cardholderName.optional(), billing_zip: billingZip.optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Only cardholder_name and billing_zip may be set.' : 'Metadata must be an object.') },
);
export type WireMetadata = z.infer<typeof WireMetadata>;

/** A JSON merge patch (RFC 7396) of the metadata: a string sets, null removes, absent keeps. */
export const WireMetadataPatch = z.strictObject(
  { cardholder_name: cardholderName.nullable().optional(), billing_zip: billingZip.nullable().optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Only cardholder_name and billing_zip may be set.' : 'Metadata must be an object or null.') },
);
export type WireMetadataPatch = z.infer<typeof WireMetadataPatch>;

const wholeNumber = (message: string) => z.int({ error: message });

/** The card as sent; its rules beyond the types (Luhn, network, expiry) are in card-checks.ts. */
export const WireCardData = z.strictObject(
  {
    number: z.string({ error: 'Card number is required.' }),
    expiration_month: wholeNumber('Expiration month is required.'),
    expiration_year: wholeNumber('Expiration year is required.'),
    cvc: z.string({ error: 'CVC must be a string.' }).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'A card takes number, expiration_month, expiration_year and cvc only.' : 'Card data is required.') },
);
export type WireCardData = z.infer<typeof WireCardData>;

export const WireCreateToken = z.strictObject(
  {
    type: z.literal('card', { error: 'Token type must be "card".' }),
    data: WireCardData,
    metadata: WireMetadata.optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown property.' : 'The request body must be a JSON object.') },
);
export type WireCreateToken = z.infer<typeof WireCreateToken>;

export const WireUpdateToken = z.strictObject(
  { metadata: WireMetadataPatch.nullable().optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Only metadata can be updated.' : 'The request body must be a JSON object.') },
);
export type WireUpdateToken = z.infer<typeof WireUpdateToken>;

/** An exact origin (scheme, host and port; no path): where the hosted fields may be framed. */
const origin = z.string({ error: 'Origin is required.' }).refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}, 'Origin must be an exact origin such as https://www.example.com (scheme, host and port; no path).');

export const WireCreateSession = z.strictObject(
  {
    owner: z.string({ error: 'Owner is required.' }).min(1, 'Owner must be between 1 and 200 characters.').max(200, 'Owner must be between 1 and 200 characters.'),
    origin,
    // Pages framing the origin's page in turn (the hosted checkout's partner page): frame-ancestors is
    // checked against every ancestor. Messages still go to `origin` only.
    frame_ancestors: z.array(origin).max(3, 'At most 3 frame ancestors.').optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown property.' : 'The request body must be a JSON object.') },
);
export type WireCreateSession = z.infer<typeof WireCreateSession>;

export const WireDetokenize = z.strictObject(
  { token_id: z.uuid({ error: 'Token id must be a UUID.' }) },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown property.' : 'The request body must be a JSON object.') },
);
export type WireDetokenize = z.infer<typeof WireDetokenize>;

// ---- Answers --------------------------------------------------------------------------------------

const timestamp = z.iso.datetime({ offset: true });

export const WireSession = z.object({ session_key: z.string().min(1), expires_at: timestamp });
export type WireSession = z.infer<typeof WireSession>;

/** A token as the vault shows it to its owner: the card masked, never its number or security code. */
export const WireToken = z.object({
  id: z.uuid(),
  type: z.literal('card'),
  tenant_id: z.uuid(),
  card: z.object({
    brand: z.string(),
    last4: z.string().regex(/^\d{4}$/),
    expiration_month: z.int().min(1).max(12),
    expiration_year: z.int(),
  }),
  fingerprint: z.string().min(1),
  metadata: z.record(z.string(), z.string()),
  owner: z.string().nullable(),
  created_at: timestamp,
  modified_at: timestamp.nullable(),
});
export type WireToken = z.infer<typeof WireToken>;

/** A card as the processor reads it: in clear, the security code only the first time. */
export const WireDetokenized = z.object({
  id: z.uuid(),
  data: z.object({
    number: z.string(),
    expiration_month: z.int(),
    expiration_year: z.int(),
    cvc: z.string().optional(),
  }),
});
export type WireDetokenized = z.infer<typeof WireDetokenized>;

/** An error answer: RFC 7807 problem details, with `errors` per field for a validation problem. */
export const WireProblem = z.object({
  type: z.string().optional(),
  title: z.string(),
  status: z.int(),
  detail: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type WireProblem = z.infer<typeof WireProblem>;
