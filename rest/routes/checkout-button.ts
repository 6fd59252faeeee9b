/**
 * The checkout button (components/checkout-button.js, one ES module without build step or dependencies),
 * which partners' pages load from the API's origin: that origin is where it sends its requests unless the
 * page says otherwise (`api-base`).
 *
 * The module is public and loadable from any page: `<script type="module">` fetches cross-origin scripts
 * in CORS mode, so it answers `Access-Control-Allow-Origin: *` (no credentials: it is the same file for
 * everyone). What it then calls with a publishable key is guarded by the checkout routes' own CORS
 * (publishable-cors.ts: the key's origins only).
 */
import { readFileSync } from 'node:fs';
import { defineRoute, type Route } from '../route-table.js';

export const CHECKOUT_BUTTON_PATH = '/components/checkout-button.js';

const COMPONENT = readFileSync(new URL('../../components/checkout-button.js', import.meta.url), 'utf8');

/** Short enough that a fix reaches partner pages within minutes; long enough to spare a reload. */
const SCRIPT_CACHE = 'public, max-age=300';

export function checkoutButtonRoutes(): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: CHECKOUT_BUTTON_PATH,
      operationId: 'getCheckoutButtonComponent',
      summary: 'The checkout button browser component (an ES module)',
      tags: ['Checkout'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'JavaScript' } },
      handler: () => ({
        headers: {
          'Content-Type': 'application/javascript; charset=utf-8',
          'Cache-Control': SCRIPT_CACHE,
          'Access-Control-Allow-Origin': '*',
          'Cross-Origin-Resource-Policy': 'cross-origin',
        },
        body: COMPONENT,
      }),
    }),
  ];
}
