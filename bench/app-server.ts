/**
 * The whole service as `npm start` builds it (request log on, API key check, usage limiter, bearer
 * check, authorization server), with a partner whose plan is too large to limit a benchmark, and a
 * traveler signed in through the real flow, so that every request takes the full path and succeeds.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createService } from '../app.js';
import { loadConfig } from '../config.js';
import { authorize, clientFor, oauth, PARTNER_REDIRECT } from '../test/helpers/oauth.js';
import { freePort, type RunningService } from '../test/helpers/service.js';
import { reportToParent } from './child.js';
import { ensureDatabase } from './ensure-database.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-bench-'));
// The port is known before the service is built: its issuer URL and sandbox adapters name it.
const port = await freePort();
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  SANDBOX: '1',
  LOG_LEVEL: 'info',
  PORT: String(port),
  BASE_URL: `http://127.0.0.1:${port}`,
});
if (config.databaseUrl) await ensureDatabase(config.databaseUrl);
// One traveler's agent sends every tool call of the run: no limit on it here.
const service = await createService(config, { toolCallLimit: { points: 1_000_000_000, duration: 60 } });
await service.partners.setPlan({ id: 'benchmark', requests_per_second: 1_000_000, burst: 1_000_000, requests_per_day: 1_000_000_000 });
const partner = await service.partners.createPartner({ name: 'Benchmark', plan_id: 'benchmark' });
const server = http.createServer(service.app.callback());
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${port}`;
const tokens = await signInThroughTheHostedPages();
const providerBOffer = await sandboxOffer();
reportToParent({
  port,
  providerBOffer,
  offerId: await createOffer(providerBOffer),
  toolToken: tokens.toolToken,
  apiKey: partner.api_key,
  token: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  clientAuthorization: tokens.clientAuthorization,
  // What plain-server.ts needs to do the same jobs: the partner, and the tokens' keys and claims.
  partnerId: partner.partner_id,
  issuer: config.authUrl,
  audience: config.baseUrl,
  jwks: await publishedKeySet(),
});

/** The key set the authorization server publishes (its discovery document names where). */
async function publishedKeySet(): Promise<string> {
  const discovery = (await (await fetch(`${config.authUrl}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
  return (await fetch(discovery.jwks_uri)).text();
}

/** A provider_b offer as its sandbox serves it (valid for 30 minutes): the body of createProviderOffer. */
async function sandboxOffer(): Promise<unknown> {
  const response = await fetch(`${config.sandboxUrl}/flights/provider_b/air/offers/off_0000AuPyAJY1KPrmYbBxIm`, {
    headers: { authorization: 'Bearer duffel_test_bench', 'duffel-version': 'v2' },
  });
  return ((await response.json()) as { data: unknown }).data;
}

/** The offer that getProviderOffer and the get_offer_details tool read. */
async function createOffer(native: unknown): Promise<string> {
  const response = await fetch(`${url}/v1/flights/providers/provider_b/offers`, {
    method: 'POST',
    headers: { 'x-api-key': partner.api_key, 'content-type': 'application/json' },
    body: JSON.stringify(native),
  });
  return ((await response.json()) as { offer_id: string }).offer_id;
}

/**
 * A traveler signed in the way a partner's app does it: a confidential client of the partner, the
 * authorization-code flow with PKCE through the hosted pages (code from the mail sandbox), then the code
 * exchange. One access token serves the whole run, as a client reuses its token for its 15 minutes.
 */
async function signInThroughTheHostedPages() {
  const running = { url, config, service } as RunningService;
  const client = await service.partnerClients.create({ partner_id: partner.partner_id, name: 'Benchmark', redirect_uris: [PARTNER_REDIRECT] });
  const secret = client.client_secret as string;
  const configuration = await clientFor(running, client.client_id, oauth.ClientSecretBasic(secret));
  const { tokens } = await authorize(running, configuration, {
    redirectUri: PARTNER_REDIRECT,
    scope: 'profile.read payments.read',
    traveler: { email: 'bench@example.com' },
  });
  // Two saved cards to list (legacy imports: the bench serves no vault).
  await service.paymentMethods.importLegacy({ user: 'bench@example.com', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, isDefault: true });
  await service.paymentMethods.importLegacy({ user: 'bench@example.com', brand: 'mastercard', last4: '4444', expMonth: 6, expYear: 2029 });
  // The same traveler authorizes the partner's agent: a token for the tool endpoint (its own audience).
  const tool = await authorize(running, configuration, {
    redirectUri: PARTNER_REDIRECT,
    scope: 'bookings.write',
    traveler: { email: 'bench@example.com' },
    extra: { resource: `${url}/v1/mcp` },
  });
  return {
    toolToken: tool.tokens.access_token,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token as string,
    clientAuthorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}`,
  };
}

process.on('disconnect', async () => {
  server.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
