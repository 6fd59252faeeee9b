/**
 * The first partner route and the API's self-description: capabilities of every seeded provider, the
 * OpenAPI 3.1 document generated from the route table, and the reference page served without a CDN.
 */
import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { ProviderCapabilities } from '../core/flights/schemas.js';
import { PROVIDERS } from '../seeds/providers.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let apiKey: string;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  apiKey = (await running.service.partners.createPartner({ name: 'Docs reader' })).api_key;
});

test.after.always(async () => {
  await running?.close();
});

for (const provider of PROVIDERS) {
  test(`capabilities of ${provider.id} are served as seeded, in the schema's shape`, async (t) => {
    const response = await fetch(`${running.url}/v1/flights/providers/${provider.id}/capabilities`, {
      headers: { 'x-api-key': apiKey },
    });
    t.is(response.status, 200);
    const body = await jsonOf(response);
    t.deepEqual(body, provider.capabilities);
    t.deepEqual(Object.keys(body), Object.keys(ProviderCapabilities.shape));
    t.true(ProviderCapabilities.safeParse(body).success);
  });
}

test('the seeds are in the database as reference data', async (t) => {
  const rows = await running.service.db.knex('flight_providers').select('id', 'type', 'is_active').orderBy('priority');
  t.deepEqual(
    rows.map((row) => row.id),
    ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'],
  );
  t.deepEqual(
    rows.map((row) => row.type),
    ['GDS', 'API', 'NDC', 'OTA', 'API'],
  );
});

test('an unknown provider is a 404 in the standard envelope naming the known ones', async (t) => {
  const response = await fetch(`${running.url}/v1/flights/providers/provider_x/capabilities`, { headers: { 'x-api-key': apiKey } });
  t.is(response.status, 404);
  const body = await jsonOf(response);
  t.like(body, { status_code: 404, code: 'provider_not_found' });
  t.regex(body.message, /provider_a, provider_b, provider_c, provider_d, provider_e/);
});

test('the OpenAPI 3.1 document describes the route from its zod schemas', async (t) => {
  const response = await fetch(`${running.url}/openapi.json`);
  t.is(response.status, 200);
  const doc = await jsonOf(response);
  t.is(doc.openapi, '3.1.0');
  t.is(doc.info.version, '1.0.0');
  t.is(doc.servers[0].url, running.config.baseUrl);

  const operation = doc.paths['/v1/flights/providers/{provider}/capabilities'].get;
  t.is(operation.operationId, 'getProviderCapabilities');
  t.deepEqual(operation.security, [{ ApiKey: [] }]);
  t.like(operation.parameters[0], { name: 'provider', in: 'path', required: true });
  t.deepEqual(operation.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/ProviderCapabilities' });
  for (const status of ['401', '403', '404', '429', '500']) {
    t.deepEqual(operation.responses[status].content['application/json'].schema, { $ref: '#/components/schemas/ErrorResponse' }, status);
  }

  const capabilities = doc.components.schemas.ProviderCapabilities;
  t.deepEqual(Object.keys(capabilities.properties), Object.keys(ProviderCapabilities.shape));
  t.is(capabilities.properties.supports_seat_selection.type, 'boolean');
  t.truthy(capabilities.properties.supports_seat_selection.description);
  t.deepEqual(doc.components.securitySchemes.ApiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'Your partner application API key.',
  });
});

test('every $ref in the document resolves, and internal pages stay out of it', async (t) => {
  const doc = await jsonOf(await fetch(`${running.url}/openapi.json`));
  const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
  t.true(refs.length > 0);
  for (const ref of refs) {
    const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
    t.truthy(doc.components.schemas[name], ref);
  }
  t.falsy(doc.paths['/docs']);
  t.falsy(doc.paths['/openapi.json']);
  t.truthy(doc.paths['/healthz'].get);
});

test('the reference page is served from the bundled package, with no CDN', async (t) => {
  const page = await fetch(`${running.url}/docs`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /text\/html/);
  // Pages get helmet's browser set: scripts only from this origin.
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  t.is(page.headers.get('cross-origin-opener-policy'), 'same-origin');
  const html = await page.text();
  t.notRegex(html, /https?:\/\//);
  const scripts = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
  t.deepEqual(scripts, ['/docs/assets/swagger-ui.css', '/favicon.ico', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/init.js']);
  for (const asset of scripts) {
    const response = await fetch(`${running.url}${asset}`);
    t.is(response.status, 200, asset);
    t.true((await response.arrayBuffer()).byteLength > 0);
  }
  t.is((await fetch(`${running.url}/docs/assets/secret.txt`)).status, 404);
  t.is((await fetch(`${running.url}/docs/assets/constructor`)).status, 404);
  t.is((await fetch(`${running.url}/docs/assets/__proto__`)).status, 404);
  t.is((await fetch(`${running.url}/docs/assets/..%2Fpackage.json`)).status, 404);
});

test('the landing page links the docs', async (t) => {
  const response = await fetch(`${running.url}/`);
  t.is(response.status, 200);
  t.true((await response.text()).includes(`href="${running.config.baseUrl}/docs"`));
});
