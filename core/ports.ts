/**
 * The outside systems the domain talks to, as interfaces. Adapters in providers/ implement them; the
 * composition root picks one (a real system's, or its sandbox's) from the configuration.
 */

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text: one-time codes are sent as one unbroken run of digits. */
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface SmsMessage {
  /** E.164. */
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** The card networks the service accepts (decisions §8). */
export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** What the vault tells about a card token: never the number or the security code. */
export interface VaultCard {
  tokenId: string;
  /** Undefined for a network the service does not accept. */
  brand: CardBrand | undefined;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The same card number gives the same fingerprint (to spot a card saved twice). */
  fingerprint: string;
  /** The owner named when the session that created the token was opened; undefined if made otherwise. */
  owner: string | undefined;
}

/** A short-lived key with which a browser's hosted card fields create one traveler's tokens, and nothing else. */
export interface VaultSession {
  sessionKey: string;
  expiresAt: Date;
}

/**
 * The card vault (decisions §8, Basis Theory's dialect): card numbers go from the browser straight to it,
 * and the service only ever holds its token ids. Failures are domain errors: `ProviderUnavailableError`
 * with code `payment_unavailable`, `ProviderTimeoutError` with code `payment_timeout`.
 */
export interface CardVault {
  /** The vault's public origin, where browsers load its hosted card fields. */
  readonly publicUrl: string;
  /**
   * Opens a session for the hosted fields of one traveler's browser. `owner` is an opaque reference the
   * tokens made with it carry; `origin` is the page that frames the fields (their messages go there only).
   * `frameAncestors`: the pages further up that frame that page (the partner page around the hosted
   * checkout): browsers check `frame-ancestors` against every ancestor, not only the parent.
   */
  openSession(input: { owner: string; origin: string; frameAncestors?: readonly string[] }): Promise<VaultSession>;
  /** The masked card of a token; undefined when the vault has no such token (or it was redacted). */
  readCard(tokenId: string): Promise<VaultCard | undefined>;
  /** Sets (a string) or clears (null) the card's details kept in the vault; keys left out are kept. */
  updateCardDetails(tokenId: string, details: { cardholderName?: string | null; billingZip?: string | null }): Promise<void>;
  /** Deletes the token and the card behind it; a token already gone is not an error. */
  redact(tokenId: string): Promise<void>;
}

export type PaymentIntentStatus = 'requires_capture' | 'processing' | 'succeeded' | 'canceled';

/** An authorization of an amount on a card, held until captured or cancelled (Stripe's PaymentIntent). */
export interface PaymentIntent {
  /** The processor's id (`pi_...`): the booking's `payment_intent_id`. */
  id: string;
  status: PaymentIntentStatus;
  /** Integer minor units of `currency` (cents; yen for JPY). */
  amountMinor: number;
  amountCapturableMinor: number;
  amountReceivedMinor: number;
  /** ISO 4217, upper case. */
  currency: string;
}

export interface PaymentRefund {
  id: string;
  paymentIntentId: string;
  amountMinor: number;
  status: 'pending' | 'succeeded' | 'failed';
}

/**
 * The payment processor (decisions §8, Stripe PaymentIntents' dialect). It reads the card from the vault
 * itself, with its own credential: the service hands it a token id, never a card. Every call that moves
 * money carries an idempotency key, so a retry after a lost answer never charges twice. Failures:
 * `CardDeclinedError` (the card was refused), `ProviderUnavailableError` code `payment_unavailable`,
 * `ProviderTimeoutError` code `payment_timeout`.
 */
export interface PaymentProcessor {
  /** Authorizes `amountMinor` on the card (manual capture): the intent comes back `requires_capture`. */
  authorize(input: { amountMinor: number; currency: string; vaultToken: string; idempotencyKey: string; description?: string }): Promise<PaymentIntent>;
  /** Captures all that is capturable, or `amountMinor` of it (the rest is released). */
  capture(intentId: string, input: { idempotencyKey: string; amountMinor?: number }): Promise<PaymentIntent>;
  /** Voids an authorization that was not captured. */
  cancel(intentId: string, input: { idempotencyKey: string }): Promise<PaymentIntent>;
  /** Refunds a captured intent in full, or `amountMinor` of it. */
  refund(intentId: string, input: { idempotencyKey: string; amountMinor?: number }): Promise<PaymentRefund>;
  retrieve(intentId: string): Promise<PaymentIntent>;
}

/** What became of a webhook's POST: the receiver's status, if it answered, and what went wrong, if anything did. */
export interface WebhookPostResult {
  status: number | null;
  /** Why the attempt failed when no answer came, or came as one that is no answer (a redirect). */
  error: string | null;
}

/**
 * Where webhooks go (decisions §14): a URL the partner chose, so reached only at addresses checked to be
 * public (loopback too in the sandbox), pinned, with no redirect followed.
 */
export interface WebhookTransport {
  /** Why `url` cannot take webhooks (its scheme, its host's addresses), or undefined when it can. */
  refusal(url: string): Promise<string | undefined>;
  /** POSTs `body` (JSON) with `headers`, checking the host's addresses again first. */
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookPostResult>;
}
