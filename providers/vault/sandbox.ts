/**
 * The card vault sandbox: a stand-in for a vault modelled on Basis Theory, served by the composition
 * root on a port of its own (VAULT_PORT), so that card numbers go to another origin than the service's.
 * Its state is in the database (every instance of the service sees one vault); card numbers and security
 * codes are sealed with the vault's own SecretBox.
 *
 *   GET  /health                  {"status": "ok"} (no key)
 *   the API (api-routes.ts)       sessions, tokens, detokenize; keys in `BT-API-KEY` (access.ts)
 *   the hosted fields (hosted-fields.ts)  GET /elements/card?session_key=..., its script and stylesheet
 *
 * Errors are RFC 7807 problem details; anything unexpected is a 500 with no detail of ours (it goes to
 * the log). The request log names the method, path (never the query: the hosted page's carries a
 * session key), status and time: no headers, no bodies.
 */
import Koa, { type Context, type Next } from 'koa';
import type { Knex } from 'knex';
import type { Clock } from '../../core/clock.js';
import type { SecretBox } from '../../core/crypto/secret-box.js';
import type { Logger } from '../../core/logger.js';
import { vaultAccess } from './access.js';
import { apiRoutes } from './api-routes.js';
import { hostedFieldsRoutes } from './hosted-fields.js';
import { answerProblem, problems, VaultProblem } from './problems.js';
import { VaultStore } from './store.js';

export { sweepExpiredVaultSessions } from './store.js';

/** The payment processor (sandbox)'s key: it may detokenize, and do nothing else. Not a secret. */
export const SANDBOX_PROCESSOR_VAULT_KEY = 'key_test_sandbox_processor';

export interface VaultSandboxDeps {
  db: Knex;
  clock: Clock;
  /** The vault's own key (not the service's data key), for the card data it keeps. */
  secrets: SecretBox;
  /** The service's private keys (in sandbox mode, config's SANDBOX_VAULT_KEY). */
  serviceKeys: string[];
  logger?: Logger;
}

export function vaultSandbox(deps: VaultSandboxDeps): Koa {
  const store = new VaultStore(deps.db, deps.secrets);
  const allow = vaultAccess({ serviceKeys: deps.serviceKeys, processorKeys: [SANDBOX_PROCESSOR_VAULT_KEY] }, store, deps.clock);
  const api = apiRoutes({ store, clock: deps.clock, allow });
  const hostedFields = hostedFieldsRoutes({ store, clock: deps.clock });

  const app = new Koa();
  app.use(requestLog(deps.logger));
  app.use(answerErrors(deps.logger));
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/health') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' };
      return;
    }
    await next();
  });
  app.use(hostedFields.routes());
  app.use(api.routes());
  const wrongMethod = () => VaultProblem.of(405, 'The endpoint does not take this method.');
  app.use(api.allowedMethods({ throw: true, methodNotAllowed: wrongMethod, notImplemented: wrongMethod }));
  return app;
}

function answerErrors(logger: Logger | undefined) {
  return async function vaultErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) throw problems.routeNotFound();
    } catch (error) {
      if (error instanceof VaultProblem) {
        answerProblem(ctx, error.problem);
      } else {
        logger?.error({ err: error, path: ctx.path }, 'vault sandbox: unexpected error');
        answerProblem(ctx, problems.unexpected().problem);
      }
    }
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
  };
}

function requestLog(logger: Logger | undefined) {
  return async function logVaultRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger?.info({ system: 'vault_sandbox', method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 100) / 100 }, 'vault request');
    }
  };
}
