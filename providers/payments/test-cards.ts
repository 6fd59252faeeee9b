/**
 * The test cards of the payment processor sandbox: Stripe's public test numbers, plus one of our own that
 * answers too slowly. One table, so that the sandbox, its tests and the README say the same thing. Any
 * future expiry date and any security code go with them, except where a row says otherwise.
 */
import type { CardBrand } from '../../core/ports.js';

/** What the processor does when asked to authorize a payment with the card. */
export type TestCardOutcome =
  /** 200, the PaymentIntent `requires_capture`. */
  | { kind: 'authorized' }
  /** 402 `card_error`: the card is refused with this `code` (and `decline_code`, when the issuer gave one). */
  | { kind: 'declined'; code: 'card_declined' | 'expired_card' | 'incorrect_cvc'; declineCode?: 'generic_decline' | 'insufficient_funds' }
  /** 500 `api_error`: the processor failed (nothing is stored; a retry with the same key runs again). */
  | { kind: 'processing_error' }
  /** Authorized, but only after the sandbox's `slowCardDelayMs` (15 s unless set): longer than an adapter waits. */
  | { kind: 'slow' };

export interface TestCard {
  number: string;
  brand: CardBrand;
  outcome: TestCardOutcome;
  /** What it is for, in a line the README can show. */
  description: string;
}

/**
 * Ours, not Stripe's: a Luhn-valid Visa number that Stripe does not publish. The authorization is made,
 * but only after the sandbox's delay; a retry with the same idempotency key then replays it at once.
 */
export const SLOW_CARD_NUMBER = '4000000000000408';

export const PROCESSOR_TEST_CARDS = {
  visa: { number: '4242424242424242', brand: 'visa', outcome: { kind: 'authorized' }, description: 'Visa: authorized' },
  mastercard: { number: '5555555555554444', brand: 'mastercard', outcome: { kind: 'authorized' }, description: 'Mastercard: authorized' },
  amex: { number: '378282246310005', brand: 'amex', outcome: { kind: 'authorized' }, description: 'American Express: authorized' },
  discover: { number: '6011111111111117', brand: 'discover', outcome: { kind: 'authorized' }, description: 'Discover: authorized' },
  declined: {
    number: '4000000000000002',
    brand: 'visa',
    outcome: { kind: 'declined', code: 'card_declined', declineCode: 'generic_decline' },
    description: 'declined: 402 card_declined, decline_code generic_decline',
  },
  insufficientFunds: {
    number: '4000000000009995',
    brand: 'visa',
    outcome: { kind: 'declined', code: 'card_declined', declineCode: 'insufficient_funds' },
    description: 'declined: 402 card_declined, decline_code insufficient_funds',
  },
  expired: {
    number: '4000000000000069',
    brand: 'visa',
    outcome: { kind: 'declined', code: 'expired_card' },
    description: 'declined: 402 expired_card (so is any card whose expiry date has passed)',
  },
  incorrectCvc: {
    number: '4000000000000127',
    brand: 'visa',
    outcome: { kind: 'declined', code: 'incorrect_cvc' },
    description:
      'declined: 402 incorrect_cvc, when the vault still holds the security code (the first authorization with the token: the vault erases it after one read); authorized afterwards',
  },
  processingError: {
    number: '4000000000000119',
    brand: 'visa',
    outcome: { kind: 'processing_error' },
    description: 'processor failure: 500 api_error, nothing stored',
  },
  slow: {
    number: SLOW_CARD_NUMBER,
    brand: 'visa',
    outcome: { kind: 'slow' },
    description: 'ours: authorized after the sandbox’s delay (15 s by default), longer than the adapter waits',
  },
} as const satisfies Record<string, TestCard>;

/** Every other number is refused, as Stripe's test mode refuses a real card. */
export const UNKNOWN_CARD_OUTCOME = { kind: 'declined', code: 'card_declined', declineCode: 'test_mode_live_card' } as const;

const BY_NUMBER = new Map<string, TestCard>(Object.values(PROCESSOR_TEST_CARDS).map((card) => [card.number, card]));

export function testCardOf(number: string): TestCard | undefined {
  return BY_NUMBER.get(number);
}
