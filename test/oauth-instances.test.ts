/**
 * Several instances on one database, behind a round-robin balancer: every request of a flow may land on
 * another instance (no sticky sessions), so nothing of a flow may live in one process.
 */
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { decodeJwt } from 'jose';
import { loadSigningKeys } from '../authz/keys.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { authorize, oauth, registerPublicClient, uniqueEmail } from './helpers/oauth.js';
import { freePort, startService, tempDir, type RunningService } from './helpers/service.js';

let database: TestDatabase;
let instances: RunningService[] = [];
let balancer: http.Server;
let served: number[] = [];

test.before(async () => {
  database = await createTestDatabase();
  const keyDir = tempDir('tp-shared-keys-');
  const keys = await loadSigningKeys({ jwksPath: undefined, cookieKeys: undefined, dataDir: keyDir, production: false });
  const jwksPath = path.join(keyDir, 'jwks.json');
  fs.writeFileSync(jwksPath, JSON.stringify(keys.jwks));
  const port = await freePort();
  const shared = {
    BASE_URL: `http://127.0.0.1:${port}`,
    JWKS_PATH: jwksPath,
    COOKIE_KEYS: keys.cookieKeys.join(','),
    DATA_ENCRYPTION_KEY: keys.dataEncryptionKeys.join(','),
  };
  instances = [await startService(shared, { database }), await startService(shared, { database })];
  served = instances.map(() => 0);
  let next = 0;
  // Round robin: each request goes to the next instance.
  balancer = http.createServer((request, response) => {
    const index = next++ % instances.length;
    served[index] = (served[index] ?? 0) + 1;
    const target = new URL(instances[index]?.url as string);
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => balancer.listen(port, '127.0.0.1', resolve));
  t_port = (balancer.address() as AddressInfo).port;
});
let t_port = 0;

test.after.always(async () => {
  balancer?.closeAllConnections();
  await new Promise<void>((resolve) => (balancer ? balancer.close(() => resolve()) : resolve()));
  for (const instance of instances) await instance.close();
  await database?.drop();
});

test('a whole flow, refresh and revocation work with every request on the next instance', async (t) => {
  const front = { ...instances[0], url: `http://127.0.0.1:${t_port}` } as RunningService;
  const agent = await registerPublicClient(front);
  const { tokens } = await authorize(front, agent, { redirectUri: 'http://localhost:53682/callback', scope: 'profile.read', traveler: { email: uniqueEmail() } });
  t.is(decodeJwt(tokens.access_token).iss, front.config.authUrl);
  const refreshed = await oauth.refreshTokenGrant(agent, tokens.refresh_token as string);
  t.is(refreshed.scope, 'profile.read');
  await oauth.tokenRevocation(agent, tokens.refresh_token as string);
  await t.throwsAsync(oauth.refreshTokenGrant(agent, tokens.refresh_token as string));
  t.true(served.every((count) => count > 3), `both instances served the flow: ${served.join(', ')}`);
});
