/**
 * The card-capture browser component (components/card-capture.js, one ES module without build step or
 * dependencies) and, in sandbox mode, a demo page that embeds it for the signed-in traveler.
 *
 * The module is public and loadable from any page: `<script type="module">` fetches cross-origin scripts
 * in CORS mode, so it answers `Access-Control-Allow-Origin: *` (no credentials: it is the same file for
 * everyone). What the component then calls with the traveler's cookie is guarded by the session routes'
 * own CORS (component-cors.ts, COMPONENT_ORIGINS only).
 */
import { readFileSync } from 'node:fs';
import { defineRoute, type Route } from '../route-table.js';
import { demoCardsPage } from './demo-cards-page.js';

export const COMPONENT_PATH = '/components/card-capture.js';
export const DEMO_PATH = '/demo/cards';
const DEMO_SCRIPT_PATH = '/demo/cards.js';

const COMPONENT = readFileSync(new URL('../../components/card-capture.js', import.meta.url), 'utf8');
const DEMO_SCRIPT = readFileSync(new URL('../../components/card-capture-demo.js', import.meta.url), 'utf8');

/** Short enough that a fix reaches partner pages within minutes; long enough to spare a reload. */
const SCRIPT_CACHE = 'public, max-age=300';
const JAVASCRIPT = 'application/javascript; charset=utf-8';

export interface CardCaptureDeps {
  /** The card vault's URL, whose hosted fields the demo page frames. */
  vaultUrl: string;
  /** Sandbox mode: serve the demo page. */
  sandbox: boolean;
  /** The hosted pages' stylesheet (the authorization server serves it). */
  stylesheetPath: string;
}

export function cardCaptureRoutes(deps: CardCaptureDeps): Route[] {
  const routes: Route[] = [
    defineRoute({
      method: 'GET',
      path: COMPONENT_PATH,
      operationId: 'getCardCaptureComponent',
      summary: 'The card-capture browser component (an ES module)',
      tags: ['Payment methods'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'JavaScript' } },
      handler: () => ({
        headers: {
          'Content-Type': JAVASCRIPT,
          'Cache-Control': SCRIPT_CACHE,
          'Access-Control-Allow-Origin': '*',
          'Cross-Origin-Resource-Policy': 'cross-origin',
        },
        body: COMPONENT,
      }),
    }),
  ];
  if (!deps.sandbox) return routes;
  const page = demoCardsPage({ stylesheetPath: deps.stylesheetPath, componentPath: COMPONENT_PATH, scriptPath: DEMO_SCRIPT_PATH });
  const vaultOrigin = new URL(deps.vaultUrl).origin;
  routes.push(
    defineRoute({
      method: 'GET',
      path: DEMO_PATH,
      operationId: 'getCardCaptureDemo',
      summary: 'The card-capture demo page (sandbox)',
      tags: ['Payment methods'],
      auth: 'session',
      hidden: true,
      page: true,
      responses: { 200: { description: 'HTML' } },
      handler: () => ({
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-store',
          // Our scripts and API only; frames of the vault only (its hosted fields); no inline script.
          'Content-Security-Policy': [
            "default-src 'none'",
            "script-src 'self'",
            "connect-src 'self'",
            `frame-src ${vaultOrigin}`,
            "style-src 'self'",
            "img-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
          ].join('; '),
        },
        body: page,
      }),
    }),
    defineRoute({
      method: 'GET',
      path: DEMO_SCRIPT_PATH,
      operationId: 'getCardCaptureDemoScript',
      summary: 'The demo page’s script (sandbox)',
      tags: ['Payment methods'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'JavaScript' } },
      handler: () => ({ headers: { 'Content-Type': JAVASCRIPT, 'Cache-Control': SCRIPT_CACHE }, body: DEMO_SCRIPT }),
    }),
  );
  return routes;
}
