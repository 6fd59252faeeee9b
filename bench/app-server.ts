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
const service = await createService(config);
await service.partners.setPlan({ id: 'benchmark', requests_per_second: 1_000_000, burst: 1_000_000, requests_per_day: 1_000_000_000 });
const partner = await service.partners.createPartner({ name: 'Benchmark', plan_id: 'benchmark' });
const server = http.createServer(service.app.callback());
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${port}`;
const tokens = await signInThroughTheHostedPages();
reportToParent({
  port,
  providerBOffer: await sandboxOffer(),
  apiKey: partner.api_key,
  token: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  clientAuthorization: tokens.clientAuthorization,
});

/** A provider_b offer as its sandbox serves it (valid for 30 minutes): the body of createProviderOffer. */
async function sandboxOffer(): Promise<unknown> {
  const response = await fetch(`${config.sandboxUrl}/flights/provider_b/air/offers/off_0000AuPyAJY1KPrmYbBxIm`, {
    headers: { authorization: 'Bearer duffel_test_bench', 'duffel-version': 'v2' },
  });
  return ((await response.json()) as { data: unknown }).data;
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
    scope: 'profile.read',
    traveler: { email: 'bench@example.com' },
  });
  return {
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
