/**
 * The README's commands for a developer, against a running instance: `npm run agent-token` gets a token
 * the way an agent does (metadata, registration, PKCE through the hosted pages), then the MCP Inspector's
 * command-line mode, a client we did not write, lists the tools and calls them with that bearer header.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import test from 'ava';
import { TestBrowser } from './helpers/browser.js';
import { compiled } from './helpers/built.js';
import type { Json } from './helpers/http.js';
import { travelerAuthorizes, uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const run = promisify(execFile);
let running: RunningService;
let token: string;
/** What agent-token told the person running it. */
let instructions: string;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ({ token, instructions } = await agentToken());
});

/** `npm run -s agent-token -- <endpoint>`, with the traveler's browser played by the test. */
async function agentToken(): Promise<{ token: string; instructions: string }> {
  const script = spawn(process.execPath, [compiled('scripts/agent-token.ts'), `${running.url}/v1/mcp`]);
  let stdout = '';
  let stderr = '';
  script.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const url = await new Promise<URL>((resolve) => {
    script.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const printed = /^(http\S+)$/m.exec(stderr)?.[1];
      if (printed) resolve(new URL(printed));
    });
  });
  const outcome = await travelerAuthorizes(running, new TestBrowser(new URL(running.config.authUrl).origin), url, { email: uniqueEmail('inspector') });
  // The browser follows the redirect to the script's loopback callback.
  await fetch(outcome.redirectedTo as URL);
  await once(script, 'exit');
  return { token: stdout.trim(), instructions: stderr };
}
test.after.always(async () => {
  await running?.close();
});

/** `mcp-inspector --cli <endpoint> --transport http --header "Authorization: Bearer …" <args>`, its JSON answer. */
async function inspector(...args: string[]): Promise<Json> {
  const { stdout } = await run(
    'node_modules/.bin/mcp-inspector',
    ['--cli', `${running.url}/v1/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

test('agent-token says where the sign-in code is: the mail sandbox’s full address with ?to=', (t) => {
  t.true(instructions.includes(`${running.url}/sandbox/mail/messages?to=<your address>`), instructions);
});

test('the Inspector lists the tools and calls them through a search, an offer and its details', async (t) => {
  const { tools } = await inspector('--method', 'tools/list');
  t.deepEqual(tools.map((tool: { name: string }) => tool.name), ['search_flights', 'create_offer', 'get_offer_details', 'get_bags', 'get_seat_map', 'update_passenger', 'list_payment_methods', 'update_payment_method', 'create_booking', 'get_booking']);

  const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const search = await inspector('--method', 'tools/call', '--tool-name', 'search_flights', '--tool-arg', 'origin=LHR', 'destination=CDG', `departure_date=${date}`, 'currency=EUR');
  t.falsy(search.isError);
  const { search_id: searchId, offers } = search.structuredContent;
  t.is(offers.length, 2);

  const created = await inspector('--method', 'tools/call', '--tool-name', 'create_offer', '--tool-arg', `search_id=${searchId}`, `result_id=${offers[0].id}`);
  const offerId = created.structuredContent.offer_id;
  const details = await inspector('--method', 'tools/call', '--tool-name', 'get_offer_details', '--tool-arg', 'provider_id=provider_d', `offer_id=${offerId}`);
  t.like(details.structuredContent, { id: offerId, total_currency: 'EUR', total_amount: offers[0].total_amount });
});
