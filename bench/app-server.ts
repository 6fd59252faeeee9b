/**
 * The whole service as `npm start` builds it (request log on, API key check, usage limiter, bearer
 * check), with a partner whose plan is too large to limit a benchmark, and a traveler with a token, so
 * that every request takes the full path and succeeds.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { createService } from '../app.js';
import { loadSigningKeys } from '../authz/keys.js';
import { loadConfig } from '../config.js';
import { reportToParent } from './child.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-bench-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SANDBOX: '1', LOG_LEVEL: 'info', PORT: '0' });
const service = await createService(config);
await service.partners.setPlan({ id: 'benchmark', requests_per_second: 1_000_000, burst: 1_000_000, requests_per_day: 1_000_000_000 });
const partner = await service.partners.createPartner({ name: 'Benchmark', plan_id: 'benchmark' });
const token = await travelerToken();

const server = http.createServer(service.app.callback());
server.listen(0, '127.0.0.1', () => reportToParent({ port: (server.address() as AddressInfo).port, apiKey: partner.api_key, token }));
/**
 * A traveler and an access token for them, signed with the service's own key set as its issuer would.
 * One token for the whole run, as a client reuses its token for its 15 minutes: after the first request
 * the signature check is answered by the verifier's cache, which is what this measures.
 */
async function travelerToken(): Promise<string> {
  const [user] = await service.db.knex('users').insert({ email: 'bench@example.com', first_name: 'Bench' }).returning('id');
  const { jwks } = await loadSigningKeys({ jwksPath: config.jwksPath, cookieKeys: config.cookieKeys, dataDir, production: false });
  const [key] = jwks.keys;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ 'custom:user_id': user.id, client_id: 'bench', scope: 'profile.read', jti: 'bench' })
    .setProtectedHeader({ alg: 'RS256', kid: key?.kid })
    .setIssuer(config.authUrl)
    .setAudience(config.baseUrl)
    .setSubject('bench')
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(await importJWK(key as JWK, 'RS256'));
}

process.on('disconnect', async () => {
  server.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
