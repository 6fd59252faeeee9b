import crypto from 'node:crypto';
import test from 'ava';
import { SCOPE_NAMES } from '../core/scopes.js';
import { jsonOf, type Json } from './helpers/http.js';
import { rawRequest } from './helpers/raw-http.js';
import { startService, type RunningService } from './helpers/service.js';

const PUBLIC_URLS = { BASE_URL: 'https://api.example.com', AUTH_URL: 'https://auth.example.com' };
let running: RunningService;
/** The same public URLs behind a proxy (TRUST_PROXY=1): X-Forwarded-* are read. */
let proxied: RunningService;
test.before(async () => {
  [running, proxied] = await Promise.all([startService(PUBLIC_URLS), startService({ ...PUBLIC_URLS, TRUST_PROXY: '1' })]);
});
test.after.always(async () => {
  await Promise.all([running?.close(), proxied?.close()]);
});

const DOCUMENTS = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/v1/mcp'];
/** What a client could send to make us name another host: a forged Host, forged proxy headers, an absolute target. */
const FORGED: Array<{ name: string; target: () => RunningService; headers: Record<string, string>; absolute?: boolean }> = [
  { name: 'Host', target: () => running, headers: { host: 'evil.example' } },
  { name: 'X-Forwarded-Host behind a proxy', target: () => proxied, headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' } },
  { name: 'request target (GET http://evil.example/...)', target: () => running, headers: { host: 'evil.example' }, absolute: true },
];

function forgedRequest(forged: (typeof FORGED)[number], pathAndQuery: string) {
  return rawRequest(`${forged.target().url}${pathAndQuery}`, {
    headers: forged.headers,
    ...(forged.absolute ? { target: `http://evil.example${pathAndQuery}` } : {}),
  });
}

/** Every absolute URL anywhere in a JSON document. */
function urlsIn(value: Json): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

test('the API and the tool endpoint each publish their protected-resource metadata', async (t) => {
  const api = await fetch(`${running.url}/.well-known/oauth-protected-resource`);
  t.is(api.status, 200);
  t.is(api.headers.get('access-control-allow-origin'), '*');
  t.deepEqual(await jsonOf(api), {
    resource: 'https://api.example.com',
    authorization_servers: ['https://auth.example.com'],
    scopes_supported: SCOPE_NAMES,
    bearer_methods_supported: ['header'],
    resource_name: 'Travel Partner API',
    resource_documentation: 'https://api.example.com/docs',
  });
  const tools = await jsonOf(await fetch(`${running.url}/.well-known/oauth-protected-resource/v1/mcp`));
  // Exactly the endpoint's public URL: MCP clients compare it with the URL they used.
  t.is(tools.resource, 'https://api.example.com/v1/mcp');
  t.deepEqual(tools.authorization_servers, ['https://auth.example.com']);
  t.deepEqual(tools.scopes_supported, SCOPE_NAMES, 'the ten only: loyalty.read is not a scope of the tool endpoint');
});

test('the authorization server lists the identity scopes, the ten and loyalty.read (decisions §5)', async (t) => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const document = await jsonOf(await fetch(`${running.url}${path}`));
    t.deepEqual(document.scopes_supported, ['openid', 'email', 'profile', ...SCOPE_NAMES, 'loyalty.read'], path);
  }
});

for (const forged of FORGED) {
  test(`the discovery documents name AUTH_URL and BASE_URL whatever the ${forged.name} says`, async (t) => {
    for (const path of DOCUMENTS) {
      const response = await forgedRequest(forged, path);
      t.is(response.status, 200, path);
      const document = JSON.parse(response.body);
      const urls = urlsIn(document);
      t.true(urls.length >= 2, path);
      for (const url of urls) t.regex(url, /^https:\/\/(auth|api)\.example\.com(\/|$)/, `${path}: ${url}`);
      if (path.includes('authorization-server') || path.includes('openid')) {
        t.is(document.token_endpoint, 'https://auth.example.com/v1/oauth/token');
        t.is(document.authorization_endpoint, 'https://auth.example.com/');
      }
    }
  });

  test(`an authorization request sent with a forged ${forged.name} resumes on AUTH_URL`, async (t) => {
    const target = forged.target();
    const registered = await jsonOf(
      await fetch(`${target.url}/v1/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none', client_name: 'Host test' }),
      }),
    );
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      scope: 'profile.read',
      code_challenge: crypto.createHash('sha256').update('verifier'.repeat(6)).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const response = await forgedRequest(forged, `/?${query}`);
    t.true([302, 303].includes(response.status), response.body);
    const location = new URL(String(response.headers.location), 'https://auth.example.com');
    t.is(location.origin, 'https://auth.example.com');
    const uid = location.pathname.split('/').pop();
    const stored = await target.service.db.knex('oidc_models').where({ kind: 'Interaction', id: uid }).first();
    // Where the sign-in pages send the browser back once the traveler has signed in.
    t.is(new URL(JSON.parse(stored.payload).returnTo).origin, 'https://auth.example.com');
  });
}
