/**
 * What the processor sandbox does with a payment intent: authorize (create and confirm, manual capture),
 * capture, cancel, refund. Each takes the request's parameters and answers as Stripe would; a refusal is
 * thrown as a StripeRefusal. Changes run in a transaction with the intent's row locked, so two requests
 * on one intent (other keys, other instances) never both pass their checks.
 */
import type { Knex } from 'knex';
import type { Clock } from '../../core/clock.js';
import { apiError, invalidRequest, newId, Params, resourceMissing, type Answer } from './sandbox-dialect.js';
import { findIntent, insertIntent, insertRefund, intentObject, refundedAmount, refundObject, updateIntent, type IntentRow } from './sandbox-store.js';
import { UnknownToken, VaultUnavailable, type VaultedCard } from './sandbox-vault.js';
import { cvcLengthOf, hasExpired, networkOf, passesLuhn } from '../vault/card-numbers.js';
import { testCardOf, UNKNOWN_CARD_OUTCOME, type TestCardOutcome } from './test-cards.js';

/** Stripe's largest amount, in minor units. */
const MAX_AMOUNT = 99_999_999;
const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const;
const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;
const CANCELLABLE: readonly string[] = ['requires_payment_method', 'requires_capture'];

/** One request being answered: its account and parameters, and how its changes are committed. */
export interface Run {
  account: string;
  body: unknown;
  /** Runs `work` in a transaction that also keeps its answer for the request's idempotency key. */
  commit(work: (trx: Knex.Transaction) => Promise<Answer>): Promise<Answer>;
  /** Waits as a slow processor does: `ms`, or less if the caller hangs up. */
  wait(ms: number): Promise<void>;
}

export interface OperationDeps {
  clock: Clock;
  detokenize(tokenId: string): Promise<VaultedCard>;
  slowCardDelayMs: number;
}

export function operations(deps: OperationDeps) {
  const { clock } = deps;

  /** POST /v1/payment_intents with capture_method=manual and confirm=true. */
  async function authorize(run: Run): Promise<Answer> {
    const params = new Params(run.body, ['amount', 'currency', 'payment_method', 'capture_method', 'confirm', 'description', 'metadata']);
    const amount = params.integer('amount', { required: true });
    if (amount > MAX_AMOUNT) throw invalidRequest(`Amount must be no more than ${MAX_AMOUNT.toLocaleString('en')}.`, { code: 'amount_too_large', param: 'amount' });
    const currency = params.string('currency', { required: true }).toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}. Give a three-letter ISO 4217 code.`, { param: 'currency' });
    const paymentMethod = params.string('payment_method', { required: true, max: 255 });
    const manual = params.oneOf('capture_method', ['automatic', 'automatic_async', 'manual'] as const) === 'manual';
    if (!manual || params.boolean('confirm') !== true) {
      throw invalidRequest('This sandbox supports only capture_method=manual with confirm=true: an authorization captured later.', {
        param: manual ? 'confirm' : 'capture_method',
      });
    }
    const description = params.string('description', { max: 1000 }) ?? null;
    const metadata = params.metadata();

    let card: VaultedCard;
    try {
      card = await deps.detokenize(paymentMethod);
    } catch (error) {
      if (error instanceof UnknownToken) throw resourceMissing('PaymentMethod', paymentMethod, 'payment_method', 400);
      if (error instanceof VaultUnavailable) throw apiError();
      throw error;
    }
    const outcome = outcomeOf(card, clock.now());
    if (outcome.kind === 'processing_error') throw apiError();
    if (outcome.kind === 'slow') await run.wait(deps.slowCardDelayMs);

    const row: IntentRow = {
      id: newId('pi'),
      account: run.account,
      status: 'requires_capture',
      amount,
      amount_capturable: amount,
      amount_received: 0,
      currency,
      capture_method: 'manual',
      payment_method: paymentMethod,
      latest_charge: newId('ch'),
      card_brand: networkOf(card.number),
      card_last4: card.number.slice(-4),
      description,
      metadata,
      cancellation_reason: null,
      last_payment_error: null,
      created_at: clock.now(),
    };
    if (outcome.kind !== 'declined') {
      return run.commit(async (trx) => {
        await insertIntent(trx, row);
        return { status: 200, body: intentObject(row) };
      });
    }
    // A refused card leaves its intent behind, waiting for another payment method, as Stripe's does.
    const error = {
      type: 'card_error',
      code: outcome.code,
      ...(outcome.declineCode ? { decline_code: outcome.declineCode } : {}),
      ...('param' in outcome && outcome.param ? { param: outcome.param } : {}),
      message: DECLINE_MESSAGES[outcome.declineCode ?? outcome.code] ?? DECLINE_MESSAGES.generic_decline,
    };
    const failed: IntentRow = { ...row, status: 'requires_payment_method', amount_capturable: 0, last_payment_error: { ...error, payment_method: { id: paymentMethod, object: 'payment_method', type: 'card' } } };
    return run.commit(async (trx) => {
      await insertIntent(trx, failed);
      return { status: 402, body: { error: { ...error, charge: failed.latest_charge, payment_intent: intentObject(failed) } } };
    });
  }

  /** POST /v1/payment_intents/:id/capture: all that is capturable, or `amount_to_capture` (the rest is released). */
  async function capture(run: Run, id: string): Promise<Answer> {
    const params = new Params(run.body, ['amount_to_capture', 'metadata']);
    const amountToCapture = params.integer('amount_to_capture');
    params.metadata();
    return run.commit(async (trx) => {
      const intent = await lockedIntent(trx, run.account, id);
      if (intent.status !== 'requires_capture') {
        throw unexpectedState(intent, `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`);
      }
      const amount = amountToCapture ?? intent.amount_capturable;
      if (amount > intent.amount_capturable) {
        throw invalidRequest(`The amount to capture (${amount}) is greater than the amount capturable (${intent.amount_capturable}).`, {
          code: 'amount_too_large',
          param: 'amount_to_capture',
          payment_intent: intentObject(intent),
        });
      }
      const captured: IntentRow = { ...intent, status: 'succeeded', amount_capturable: 0, amount_received: amount };
      await updateIntent(trx, id, { status: captured.status, amount_capturable: 0, amount_received: amount });
      return { status: 200, body: intentObject(captured) };
    });
  }

  /** POST /v1/payment_intents/:id/cancel: voids an authorization not captured (or an intent left after a decline). */
  async function cancel(run: Run, id: string): Promise<Answer> {
    const params = new Params(run.body, ['cancellation_reason']);
    const reason = params.oneOf('cancellation_reason', CANCELLATION_REASONS) ?? null;
    return run.commit(async (trx) => {
      const intent = await lockedIntent(trx, run.account, id);
      if (!CANCELLABLE.includes(intent.status)) {
        throw unexpectedState(
          intent,
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELLABLE.join(', ')}.`,
        );
      }
      const canceled: IntentRow = { ...intent, status: 'canceled', amount_capturable: 0, cancellation_reason: reason };
      await updateIntent(trx, id, { status: 'canceled', amount_capturable: 0, cancellation_reason: reason });
      return { status: 200, body: intentObject(canceled) };
    });
  }

  /** POST /v1/refunds: `amount` of a captured intent, or all that is left to refund. */
  async function refund(run: Run): Promise<Answer> {
    const params = new Params(run.body, ['payment_intent', 'amount', 'reason', 'metadata']);
    const intentId = params.string('payment_intent', { required: true, max: 255 });
    const requested = params.integer('amount');
    const reason = params.oneOf('reason', REFUND_REASONS) ?? null;
    const metadata = params.metadata();
    return run.commit(async (trx) => {
      const intent = await findIntent(trx, run.account, intentId, { forUpdate: true });
      if (!intent) throw resourceMissing('payment_intent', intentId, 'payment_intent', 400);
      if (intent.status !== 'succeeded') {
        throw unexpectedState(intent, `This PaymentIntent (${intent.id}) does not have a successful charge to refund: it has a status of ${intent.status}.`);
      }
      const left = intent.amount_received - (await refundedAmount(trx, intent.id));
      if (left <= 0) throw invalidRequest(`Charge ${intent.latest_charge} has already been refunded.`, { code: 'charge_already_refunded' });
      const amount = requested ?? left;
      if (amount > left) {
        throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`, { code: 'amount_too_large', param: 'amount' });
      }
      const row = { id: newId('re'), account: run.account, payment_intent_id: intent.id, amount, currency: intent.currency, status: 'succeeded' as const, reason, metadata, created_at: clock.now() };
      await insertRefund(trx, row);
      return { status: 200, body: refundObject(row) };
    });
  }

  return { authorize, capture, cancel, refund };
}

async function lockedIntent(trx: Knex.Transaction, account: string, id: string): Promise<IntentRow> {
  const intent = await findIntent(trx, account, id, { forUpdate: true });
  if (!intent) throw resourceMissing('payment_intent', id, 'intent', 404);
  return intent;
}

function unexpectedState(intent: IntentRow, message: string) {
  return invalidRequest(message, { code: 'payment_intent_unexpected_state', payment_intent: intentObject(intent) });
}

/** What becomes of an authorization: a test card's outcome, or a refusal any card can meet. */
type Outcome = TestCardOutcome | { kind: 'declined'; code: string; declineCode?: string; param?: string };

/** What the card's issuer says: by the test card table, after the checks any card goes through. */
function outcomeOf(card: VaultedCard, now: Date): Outcome {
  // The card rules are the networks', shared with the vault that checked the card first.
  if (!passesLuhn(card.number)) return { kind: 'declined', code: 'incorrect_number', param: 'number' };
  if (hasExpired(card.expiration_month, card.expiration_year, now)) return { kind: 'declined', code: 'expired_card', param: 'exp_month' };
  if (card.cvc && card.cvc.length !== cvcLengthOf(networkOf(card.number))) return { kind: 'declined', code: 'incorrect_cvc', param: 'cvc' };
  const outcome: Outcome = testCardOf(card.number)?.outcome ?? UNKNOWN_CARD_OUTCOME;
  // The security code is checked only when the vault still has it (it erases it after the first read).
  if (outcome.kind === 'declined' && outcome.code === 'incorrect_cvc') return card.cvc ? { ...outcome, param: 'cvc' } : { kind: 'authorized' };
  return outcome;
}

/** The messages Stripe gives a traveler, by decline code (or error code when there is none). */
const DECLINE_MESSAGES: Record<string, string> = {
  generic_decline: 'Your card was declined.',
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  incorrect_number: 'Your card number is incorrect.',
  test_mode_live_card: 'Your card was declined. This is a sandbox: it takes only its test cards.',
};
