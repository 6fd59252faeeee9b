/**
 * The payment processor's adapter (Stripe's PaymentIntents dialect): form-encoded requests with the
 * secret key, every call that moves money carrying the caller's idempotency key, answers parsed with the
 * native schemas (wire.ts) and failures turned into domain errors in our words: a processor's own text
 * never reaches a caller.
 *
 * Retries: only calls that carry an idempotency key, and reads; at most twice after a connection failure
 * or a 5xx. An earlier attempt with the same key still running (409) is waited for, polling, for as long
 * as the adapter's timeout: its answer is the one to give. A timeout is not retried: the caller has waited
 * long enough, and learns it at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CardDeclinedError, ConflictError, NotFoundError, ProviderTimeoutError, ProviderUnavailableError, ValidationError, type FieldError } from '../../core/errors.js';
import type { PaymentIntent, PaymentProcessor, PaymentRefund } from '../../core/ports.js';
import { HttpClient, HttpTimeoutError, type HttpAnswer } from '../http-client.js';
import { WireError, WirePaymentIntent, WireRefund } from './wire.js';

export interface StripeProcessorSettings {
  /** Where its API lives, without the `/v1` (the sandbox: `${SANDBOX_URL}/payments`). */
  baseUrl: string;
  /** Its secret key (`sk_...`). */
  apiKey: string;
  /** How long one attempt may take (default 10 s). */
  timeoutMs?: number;
}

export const DEFAULT_PROCESSOR_TIMEOUT_MS = 10_000;
const MAX_RETRIES = 2;
const RETRY_DELAY_MS = 250;
const STATE_CONFLICTS = new Set(['payment_intent_unexpected_state', 'amount_too_large', 'charge_already_refunded']);

export class StripeProcessor implements PaymentProcessor {
  readonly #http: HttpClient;
  readonly #timeoutMs: number;

  constructor(settings: StripeProcessorSettings) {
    this.#timeoutMs = settings.timeoutMs ?? DEFAULT_PROCESSOR_TIMEOUT_MS;
    this.#http = new HttpClient({
      baseUrl: settings.baseUrl,
      headers: { authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' },
      timeoutMs: this.#timeoutMs,
    });
  }

  async authorize(input: { amountMinor: number; currency: string; vaultToken: string; idempotencyKey: string; description?: string }): Promise<PaymentIntent> {
    check([amountProblem('amountMinor', input.amountMinor), currencyProblem(input.currency), keyProblem(input.idempotencyKey)]);
    const form: Record<string, string> = {
      amount: String(input.amountMinor),
      currency: input.currency.toLowerCase(),
      payment_method: input.vaultToken,
      capture_method: 'manual',
      confirm: 'true',
      ...(input.description ? { description: input.description } : {}),
    };
    const answer = await this.#call('POST', 'v1/payment_intents', form, input.idempotencyKey);
    return intentOf(answer);
  }

  async capture(intentId: string, input: { idempotencyKey: string; amountMinor?: number }): Promise<PaymentIntent> {
    check([input.amountMinor === undefined ? undefined : amountProblem('amountMinor', input.amountMinor), keyProblem(input.idempotencyKey)]);
    const form: Record<string, string> = input.amountMinor === undefined ? {} : { amount_to_capture: String(input.amountMinor) };
    return intentOf(await this.#call('POST', `v1/payment_intents/${intentPath(intentId)}/capture`, form, input.idempotencyKey));
  }

  async cancel(intentId: string, input: { idempotencyKey: string }): Promise<PaymentIntent> {
    check([keyProblem(input.idempotencyKey)]);
    return intentOf(await this.#call('POST', `v1/payment_intents/${intentPath(intentId)}/cancel`, {}, input.idempotencyKey));
  }

  async refund(intentId: string, input: { idempotencyKey: string; amountMinor?: number }): Promise<PaymentRefund> {
    check([input.amountMinor === undefined ? undefined : amountProblem('amountMinor', input.amountMinor), keyProblem(input.idempotencyKey)]);
    const form: Record<string, string> = { payment_intent: intentPath(intentId), ...(input.amountMinor === undefined ? {} : { amount: String(input.amountMinor) }) };
    const answer = await this.#call('POST', 'v1/refunds', form, input.idempotencyKey);
    const refund = parse(WireRefund, answer.body);
    return {
      id: refund.id,
      paymentIntentId: refund.payment_intent ?? intentId,
      amountMinor: refund.amount,
      status: refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending',
    };
  }

  async retrieve(intentId: string): Promise<PaymentIntent> {
    return intentOf(await this.#call('GET', `v1/payment_intents/${intentPath(intentId)}`, undefined, undefined));
  }

  /** One call, retried as the header comment says; a 2xx comes back, anything else is thrown in our words. */
  async #call(method: 'GET' | 'POST', path: string, form: Record<string, string> | undefined, idempotencyKey: string | undefined): Promise<HttpAnswer> {
    const waitUntil = Date.now() + this.#timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const mayRetry = attempt < MAX_RETRIES;
      let exchange: HttpAnswer;
      try {
        exchange = await this.#http.send({ method, path, ...(form ? { form } : {}), ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}) });
      } catch (error) {
        if (error instanceof HttpTimeoutError) throw timedOut(this.#timeoutMs);
        // No answer at all (refused, reset): the same call again, under the same key.
        if (mayRetry) {
          await sleep(RETRY_DELAY_MS * 2 ** attempt);
          continue;
        }
        throw unavailable();
      }
      if (exchange.status >= 200 && exchange.status < 300) return exchange;
      const error = WireError.safeParse(exchange.body).data?.error;
      const stillRunning = exchange.status === 409 && error?.code === 'idempotency_key_in_use';
      if (exchange.status >= 500 && mayRetry) {
        await sleep(RETRY_DELAY_MS * 2 ** attempt);
        continue;
      }
      if (stillRunning && Date.now() + RETRY_DELAY_MS < waitUntil) {
        await sleep(RETRY_DELAY_MS);
        continue;
      }
      throw failureOf(exchange.status, error);
    }
  }
}

/** A PaymentIntent in the port's words; one left without a payment method (declined) is not a success. */
function intentOf(answer: HttpAnswer): PaymentIntent {
  const intent = parse(WirePaymentIntent, answer.body);
  switch (intent.status) {
    case 'requires_capture':
    case 'processing':
    case 'succeeded':
    case 'canceled':
      return {
        id: intent.id,
        status: intent.status,
        amountMinor: intent.amount,
        amountCapturableMinor: intent.amount_capturable,
        amountReceivedMinor: intent.amount_received,
        currency: intent.currency.toUpperCase(),
      };
    case 'requires_payment_method': {
      const reason = intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? 'generic_decline';
      throw new CardDeclinedError(declineMessage(reason), reason);
    }
    default:
      throw new CardDeclinedError('The bank asks to confirm this payment in a way we cannot offer: use another card.', 'authentication_required');
  }
}

/** A refusal in our words: a decline, a state conflict, an unknown payment, or the processor's failure. */
function failureOf(status: number, error: WireError['error'] | undefined): Error {
  if (status === 402) {
    const reason = error?.decline_code ?? error?.code ?? 'card_declined';
    return new CardDeclinedError(declineMessage(reason), reason);
  }
  if (error?.type === 'idempotency_error') {
    return error.code === 'idempotency_key_in_use'
      ? new ConflictError('An earlier attempt of this payment operation is still being processed: retry in a moment with the same idempotency key.', 'idempotency_conflict')
      : new ConflictError('This idempotency key was already used for a different payment operation: use a new key for a new operation.', 'idempotency_conflict');
  }
  if (status === 404) return new NotFoundError('The payment processor has no such payment: check the payment intent id.', 'payment_not_found');
  if (status === 400 && error?.code === 'resource_missing' && error.param === 'payment_intent') {
    return new NotFoundError('The payment processor has no such payment: check the payment intent id.', 'payment_not_found');
  }
  if (status === 400 && error?.code === 'resource_missing' && error.param === 'payment_method') {
    return new NotFoundError('The payment processor cannot find this card in the vault: add the card again, or use another one.', 'payment_method_not_found');
  }
  if (status === 400 && error?.code && STATE_CONFLICTS.has(error.code)) return stateConflict(error.code, error.payment_intent?.status);
  return unavailable();
}

function stateConflict(code: string, status: string | undefined): ConflictError {
  const state = status ? ` (the payment is ${STATE_WORDS[status] ?? status.replaceAll('_', ' ')})` : '';
  const message =
    code === 'charge_already_refunded'
      ? 'This payment has already been refunded in full: there is nothing left to refund.'
      : code === 'amount_too_large'
        ? `The amount is more than what is left to capture or refund on this payment${state}: ask for less.`
        : `This payment cannot do that in its current state${state}.`;
  return new ConflictError(message, 'payment_state_conflict');
}

const STATE_WORDS: Record<string, string> = {
  requires_capture: 'authorized and not yet captured',
  succeeded: 'captured',
  canceled: 'canceled: its authorization was released',
  requires_payment_method: 'declined',
  processing: 'still processing',
};

/** What the traveler can do about a refused card, by the processor's reason. */
export function declineMessage(reason: string): string {
  switch (reason) {
    case 'insufficient_funds':
      return 'The bank refused the payment: insufficient funds. Use another card, or contact the bank.';
    case 'expired_card':
      return 'The card has expired: check the expiry date, or use another card.';
    case 'incorrect_cvc':
    case 'invalid_cvc':
      return 'The card’s security code is incorrect: check the security code and enter the card again, or use another card.';
    case 'incorrect_number':
    case 'invalid_number':
      return 'The card number is incorrect: check it and enter the card again, or use another card.';
    case 'processing_error':
      return 'The card could not be processed: try again in a moment, or use another card.';
    default:
      return 'The card was declined by its bank: use another card, or ask the bank why.';
  }
}

function unavailable(): ProviderUnavailableError {
  return new ProviderUnavailableError('The payment processor is not answering as expected just now: try again in a moment.', 'payment_unavailable');
}

function timedOut(ms: number): ProviderTimeoutError {
  const seconds = Math.round(ms / 100) / 10;
  return new ProviderTimeoutError(
    `The payment processor did not answer within ${seconds} s, so the payment may or may not have been made: try again in a moment with the same idempotency key, which never charges twice.`,
    'payment_timeout',
  );
}

function parse<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw unavailable();
  return parsed.data;
}

/** An intent id goes into a path: one that is not an id names no payment. */
function intentPath(intentId: string): string {
  if (!/^pi_[A-Za-z0-9_]{1,250}$/.test(intentId)) throw new NotFoundError('The payment processor has no such payment: check the payment intent id.', 'payment_not_found');
  return intentId;
}

function check(problems: Array<FieldError | undefined>): void {
  const found = problems.filter((problem): problem is FieldError => problem !== undefined);
  if (found.length > 0) throw new ValidationError(found);
}

function amountProblem(field: string, amount: number): FieldError | undefined {
  return Number.isSafeInteger(amount) && amount > 0 ? undefined : { field, rule: 'positive_integer', message: 'must be a whole, positive number of minor units' };
}

function currencyProblem(currency: string): FieldError | undefined {
  return /^[A-Za-z]{3}$/.test(currency) ? undefined : { field: 'currency', rule: 'iso_4217', message: 'must be a three-letter ISO 4217 code' };
}

function keyProblem(key: string): FieldError | undefined {
  return key.length > 0 && key.length <= 255 ? undefined : { field: 'idempotencyKey', rule: 'length', message: 'must be 1 to 255 characters' };
}
