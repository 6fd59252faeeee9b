/**
 * The refresh grant's baseline: oidc-provider on its own, as its documentation sets it up, with what
 * the service's refresh grant must do anyway: a confidential client authenticating with Basic, a refresh
 * token that is not rotated, and a JWT access token for one resource signed RS256 (resource indicators).
 * Its storage is the library's in-memory adapter and its Koa app has nothing in front: what the library
 * itself costs per refresh, for the service's refresh grant to be measured against.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, exportJWK } from 'jose';
import Provider from 'oidc-provider';
import { reportToParent } from './child.js';

const RESOURCE = 'https://api.bench.example/';
const CLIENT = { client_id: 'bench', client_secret: 'bench-secret-bench-secret-bench-secret', redirect_uris: ['https://client.bench.example/cb'], grant_types: ['authorization_code', 'refresh_token'] };

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const server = http.createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [CLIENT],
  jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'bench' }] },
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  scopes: ['openid', 'offline_access', 'profile.read'],
  rotateRefreshToken: false,
  features: {
    resourceIndicators: {
      enabled: true,
      defaultResource: () => RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: 'profile.read', audience: RESOURCE, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
    },
  },
});
server.on('request', provider.callback());

// A refresh token as the authorization-code flow would leave it: a grant, then the token.
const client = await provider.Client.find(CLIENT.client_id);
if (!client) throw new Error('the benchmark client is not there');
const grant = new provider.Grant({ accountId: 'traveler', clientId: CLIENT.client_id });
grant.addOIDCScope('openid offline_access');
grant.addResourceScope(RESOURCE, 'profile.read');
const grantId = await grant.save();
const refreshToken = await new provider.RefreshToken({
  accountId: 'traveler',
  client,
  grantId,
  gty: 'authorization_code',
  scope: 'openid offline_access profile.read',
  resource: RESOURCE,
  authTime: Math.floor(Date.now() / 1000),
}).save();

reportToParent({ port, refreshToken, clientAuthorization: `Basic ${Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64')}` });
