/**
 * Sandbox mode only: "Demo Air", the demo airline that shows the recognition surface end to end (its
 * page with the recognition component, its backend resolving tokens over real HTTP). Its OAuth client is
 * written at start (authz/sandbox-demo-client.ts); the site is served on DEMO_AIRLINE_PORT at AUTH_URL's
 * host name.
 */
import type { Capability, SharedPieces } from './capability.js';

/** What the chip's sign-in asks for: the component's default scopes, and the traveler's loyalty programs. */
const DEMO_SCOPES = ['profile.read', 'preferences.read', 'loyalty.read'];

export async function demoAirlineModule(shared: SharedPieces): Promise<Capability> {
  const { config, db, clock } = shared;
  if (!config.sandbox || !config.demoAirline) return {};
  // Loaded only when served: a production start never reads the demo's code.
  const [{ upsertSandboxDemoClient }, { demoAirlineApp }] = await Promise.all([import('../authz/sandbox-demo-client.js'), import('../demo/airline/app.js')]);
  const client = await upsertSandboxDemoClient({ db: db.knex, clock, secrets: shared.secrets, cookieKey: shared.keys.cookieKeys[0] as string, demoOrigin: config.demoAirline.url });
  const app = demoAirlineApp({ baseUrl: config.baseUrl, authUrl: config.authUrl, client, scope: DEMO_SCOPES, logger: shared.logger });
  return { ownPortApps: [{ name: 'demo airline', portVariable: 'DEMO_AIRLINE_PORT', port: config.demoAirline.port, app }] };
}
