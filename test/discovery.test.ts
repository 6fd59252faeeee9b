import test from 'ava';
import { SCOPE_NAMES } from '../core/scopes.js';
import { jsonOf } from './helpers/http.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
test.before(async () => {
  running = await startService({ BASE_URL: 'https://api.example.com', AUTH_URL: 'https://auth.example.com' });
});
test.after.always(async () => {
  await running?.close();
});

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
});
