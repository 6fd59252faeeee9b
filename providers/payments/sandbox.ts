/**
 * The payment processor sandbox, speaking Stripe's PaymentIntents dialect (decisions §8). Served under
 * `/sandbox/payments` in sandbox mode:
 *
 *   POST /v1/payment_intents               amount, currency, payment_method (a card vault token id),
 *                                          capture_method=manual, confirm=true[, description][, metadata[...]]
 *                                          → 200 PaymentIntent `requires_capture`, or 402 card_error
 *   GET  /v1/payment_intents/{id}
 *   POST /v1/payment_intents/{id}/capture  [amount_to_capture] (the rest is released)
 *   POST /v1/payment_intents/{id}/cancel   [cancellation_reason]
 *   POST /v1/refunds                       payment_intent[, amount][, reason][, metadata[...]]
 *   GET  /v1/refunds/{id}
 *
 * `Authorization: Bearer <secret key>` (or Basic, the key as user name); form-encoded parameters with
 * bracket notation; amounts in integer minor units; an `Idempotency-Key` header on any POST. It reads the
 * card from the vault over HTTP with its own key; test cards steer the outcome (test-cards.ts). State is
 * in the database, so that any instance answers and a key is honoured across instances.
 */
import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context, Middleware, Next } from 'koa';
import { koaBody } from 'koa-body';
import type { Clock } from '../../core/clock.js';
import { answerSlowly } from '../flights/sandbox-timing.js';
import { accountOf, apiError, invalidRequest, newId, resourceMissing, StripeRefusal, type Answer } from './sandbox-dialect.js';
import { fingerprintOf, IdempotencyKeys } from './sandbox-idempotency.js';
import { operations, type Run } from './sandbox-operations.js';
import { findIntent, findRefund, intentObject, refundObject } from './sandbox-store.js';
import { vaultReader } from './sandbox-vault.js';

export const PROCESSOR_SANDBOX_PREFIX = '/sandbox/payments';
/** How long the slow test card makes its caller wait, unless told otherwise. */
export const DEFAULT_SLOW_CARD_DELAY_MS = 15_000;

export interface ProcessorSandboxDeps {
  db: Knex;
  clock: Clock;
  /** The secret keys it accepts; each is an account of its own. */
  apiKeys: string[];
  /** The card vault, and the processor's own key to its detokenize endpoint. */
  vaultUrl: string;
  vaultKey: string;
  slowCardDelayMs?: number;
}

const ID = /^[A-Za-z0-9_]{1,255}$/;

export function processorSandbox(deps: ProcessorSandboxDeps): Router {
  const router = new Router({ prefix: PROCESSOR_SANDBOX_PREFIX });
  const slowCardDelayMs = deps.slowCardDelayMs ?? DEFAULT_SLOW_CARD_DELAY_MS;
  // A request still unanswered well after the slowest card would have been is one its instance gave up.
  const keys = new IdempotencyKeys({ db: deps.db, clock: deps.clock, abandonedAfterMs: Math.max(60_000, slowCardDelayMs + 30_000) });
  const ops = operations({ clock: deps.clock, detokenize: vaultReader(deps.vaultUrl, deps.vaultKey), slowCardDelayMs });
  const form = koaBody({
    json: false,
    urlencoded: true,
    text: false,
    multipart: false,
    formLimit: '64kb',
    // Stripe's bracket notation (metadata[booking_id]=...); a dot is part of a name, not a path.
    queryString: { allowDots: false, depth: 2, parameterLimit: 200, arrayLimit: 20 },
  });

  router.use(answerInStripesWords(deps.apiKeys));

  /** Answers a POST, once per idempotency key: a replay gives the stored answer back. */
  const once =
    (operation: (run: Run, ctx: Context) => Promise<Answer>): Middleware =>
    async (ctx) => {
      const account = ctx.state.processorAccount as string;
      const key = ctx.get('idempotency-key') || undefined;
      const body: unknown = ctx.request.body ?? {};
      if (key !== undefined) {
        ctx.set('Idempotency-Key', key);
        const claim = await keys.claim(account, key, fingerprintOf(ctx.method, ctx.path, body));
        if (claim.kind === 'replay') {
          ctx.set('Idempotent-Replayed', 'true');
          return respond(ctx, claim.answer);
        }
      }
      let remembered = false;
      const run: Run = {
        account,
        body,
        commit: (work) =>
          deps.db.transaction(async (trx) => {
            const answer = await work(trx);
            if (key !== undefined) await keys.remember(account, key, answer, trx);
            remembered = true;
            return answer;
          }),
        wait: (ms) => answerSlowly(ctx, ms),
      };
      let answer: Answer;
      try {
        answer = await operation(run, ctx);
      } catch (error) {
        if (!(error instanceof StripeRefusal)) {
          if (key !== undefined) await keys.release(account, key);
          throw error;
        }
        answer = error.answer;
      }
      if (key !== undefined && answer.status >= 500) await keys.release(account, key);
      else if (key !== undefined && !remembered) await keys.remember(account, key, answer);
      respond(ctx, answer);
    };

  router.post('/v1/payment_intents', form, once((run) => ops.authorize(run)));
  router.post('/v1/payment_intents/:id/capture', form, once((run, ctx) => ops.capture(run, pathId(ctx, 'payment_intent'))));
  router.post('/v1/payment_intents/:id/cancel', form, once((run, ctx) => ops.cancel(run, pathId(ctx, 'payment_intent'))));
  router.post('/v1/refunds', form, once((run) => ops.refund(run)));

  router.get('/v1/payment_intents/:id', async (ctx) => {
    const id = pathId(ctx, 'payment_intent');
    const intent = await findIntent(deps.db, ctx.state.processorAccount as string, id);
    if (!intent) throw resourceMissing('payment_intent', id, 'intent', 404);
    respond(ctx, { status: 200, body: intentObject(intent) });
  });
  router.get('/v1/refunds/:id', async (ctx) => {
    const id = pathId(ctx, 'refund');
    const refund = await findRefund(deps.db, ctx.state.processorAccount as string, id);
    if (!refund) throw resourceMissing('refund', id, 'id', 404);
    respond(ctx, { status: 200, body: refundObject(refund) });
  });

  return router;
}

/**
 * Every answer in Stripe's shape: the secret key checked first, then refusals (and a body we cannot parse)
 * as `{error}`, and anything unexpected as a 500 `api_error` (the app's error event still logs it).
 */
function answerInStripesWords(apiKeys: readonly string[]): Middleware {
  return async (ctx: Context, next: Next) => {
    ctx.set('Request-Id', newId('req'));
    try {
      ctx.state.processorAccount = accountOf(ctx, apiKeys);
      await next();
    } catch (error) {
      if (error instanceof StripeRefusal) return respond(ctx, error.answer);
      const status = (error as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return respond(ctx, invalidRequest('Invalid request: send parameters form-encoded (application/x-www-form-urlencoded), within 64 kB.', {}, status).answer);
      }
      ctx.app.emit('error', error, ctx);
      respond(ctx, apiError().answer);
    }
  };
}

function pathId(ctx: Context, what: string): string {
  const id = String(ctx.params.id ?? '');
  if (!ID.test(id)) throw resourceMissing(what, id.slice(0, 255), what === 'refund' ? 'id' : 'intent', 404);
  return id;
}

function respond(ctx: Context, answer: Answer): void {
  if (answer.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="Stripe"');
  ctx.status = answer.status;
  ctx.body = answer.body;
}
