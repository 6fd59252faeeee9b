/**
 * "Demo Air": a stand-in airline's website, served in sandbox mode on a port of its own (another origin
 * than the service, same site on localhost: decisions §11), that shows the recognition surface end to
 * end the way an airline integrates it:
 * - its page embeds <travel-partner-recognition> from the authorization server;
 * - the component hands the page a recognition token, which the page posts to the airline's own backend
 *   (`POST /api/recognize`);
 * - the backend resolves it with `POST {BASE_URL}/v1/identity/resolve`, over real HTTP, with its client
 *   credentials (HTTP Basic), and returns the claims, or the service's 404 (a replayed token, say), as is.
 * `/?frame=broken` points the component at a frame of this site that never boots (`/broken-frame`), to
 * show `frame_timeout`; `ready_timeout_ms` sets the component's timeout.
 *
 * It talks to the service only over HTTP, as a real airline would; nothing of the service is imported.
 */
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import got from 'got';
import Koa, { type Context } from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from '../../core/logger.js';
import { DEMO_STYLESHEET, demoPage } from './page.js';

export interface DemoAirlineOptions {
  /** The service's API (where resolve lives) and its authorization server (where the component lives). */
  baseUrl: string;
  authUrl: string;
  client: { clientId: string; clientSecret: string; redirectUri: string };
  /** The scopes the chip's sign-in asks for. */
  scope: string[];
  logger: Logger;
}

const PAGE_SCRIPT = readFileSync(new URL('./page-script.js', import.meta.url), 'utf8');
const RESOLVE_TIMEOUT_MS = 10_000;
/** A paper plane on Demo Air's blue. */
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f5fbf"/><path d="M3 8l10-5-3 10-2-4z" fill="#fff"/></svg>';

export function demoAirlineApp(options: DemoAirlineOptions): Koa {
  const app = new Koa();
  const router = new Router();
  const authOrigin = new URL(options.authUrl).origin;
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(options.client.clientId)}:${encodeURIComponent(options.client.clientSecret)}`).toString('base64')}`;

  router.get('/', (ctx) => {
    ctx.set({
      // The component from the authorization server, its frame, our own script and backend; nothing inline.
      'Content-Security-Policy': [
        "default-src 'none'",
        `script-src 'self' ${authOrigin}`,
        "connect-src 'self'",
        `frame-src 'self' ${authOrigin}`,
        "style-src 'self'",
        "img-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    ctx.type = 'html';
    ctx.body = demoPage({ componentUrl: `${options.authUrl}/components/recognition.js`, clientId: options.client.clientId, redirectUri: options.client.redirectUri, scope: options.scope });
  });
  router.get('/page.js', (ctx) => asset(ctx, 'application/javascript; charset=utf-8', PAGE_SCRIPT));
  // Browsers ask for it whatever the page says; without one each visit logs a 404.
  router.get('/favicon.ico', (ctx) => asset(ctx, 'image/svg+xml', FAVICON));
  router.get('/demo.css', (ctx) => asset(ctx, 'text/css; charset=utf-8', DEMO_STYLESHEET));
  // A frame that never says it is ready: the component's readyTimeoutMs runs out (frame_timeout).
  router.get('/broken-frame', (ctx) => {
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'");
    ctx.type = 'html';
    ctx.body = '<!doctype html><title>Never boots</title>';
  });

  router.post('/api/recognize', koaBody({ json: true, urlencoded: false, text: false, jsonLimit: '4kb' }), async (ctx) => {
    const token = (ctx.request.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token === '') {
      ctx.status = 400;
      ctx.body = { message: 'Send {"token": "<recognition token>"}.' };
      return;
    }
    try {
      const response = await got.post(`${options.baseUrl}/v1/identity/resolve`, {
        headers: { authorization: basic },
        json: { recognition_token: token },
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: RESOLVE_TIMEOUT_MS },
      });
      ctx.status = response.statusCode;
      ctx.body = parseJson(response.body);
    } catch (error) {
      // The code and message only: the request (its Basic credentials, the token) stays out of the log.
      const { code, message } = error as { code?: string; message?: string };
      options.logger.warn({ code, message }, 'demo airline: resolve call failed');
      ctx.status = 502;
      ctx.body = { message: 'The Travel Partner service did not answer.' };
    }
  });

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

function asset(ctx: Context, type: string, body: string): void {
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = type;
  ctx.body = body;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 500) };
  }
}
