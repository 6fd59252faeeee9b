/**
 * What anyone may make the service do without credentials is bounded: sign-in codes to one address, and
 * from one client address; open registrations from one client address. Over the limit: 429 with
 * Retry-After and a message saying how long to wait.
 */
import test from 'ava';
import { isPage, TestBrowser } from './helpers/browser.js';
import { jsonOf } from './helpers/http.js';
import { registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { AbuseLimits } from '../authz/abuse-limits.js';
import { RateLimitedError } from '../core/errors.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService(
    {},
    {
      abusePolicy: {
        signInCodesPerAddress: { points: 3, duration: 3600 },
        signInCodesPerClient: { points: 6, duration: 900 },
        registrationsPerClient: { points: 3, duration: 3600 },
      },
    },
  );
});
test.after.always(async () => {
  await running?.close();
});

async function askForCode(email: string, agent: Awaited<ReturnType<typeof registerPublicClient>>) {
  const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const page = await browser.open(authorization.url.href);
  if (!isPage(page)) throw new Error('expected the e-mail page');
  const answer = await browser.submit(page, '/email', { email });
  if (!isPage(answer)) throw new Error('expected a page');
  return answer;
}

test.serial('sign-in codes: at most N per address, then per client address; 429 says how long to wait', async (t) => {
  const agent = await registerPublicClient(running);
  const email = uniqueEmail();
  for (let i = 0; i < 3; i++) t.is((await askForCode(email, agent)).status, 200);
  const refused = await askForCode(email.toUpperCase(), agent);
  t.is(refused.status, 429);
  t.truthy(refused.headers.get('retry-after'));
  t.regex(refused.html, /Too many sign-in codes were sent to this address: try again in 60 minutes/);
  const [latest, ...older] = await jsonOf(await fetch(`${running.url}/sandbox/mail/messages?to=${encodeURIComponent(email)}`));
  t.truthy(latest);
  t.is(older.length, 2, 'no fourth mail went out');

  // Other addresses use up the per-network budget of 6 (the refused attempt above counted there).
  t.is((await askForCode(uniqueEmail(), agent)).status, 200);
  t.is((await askForCode(uniqueEmail(), agent)).status, 200);
  const network = await askForCode(uniqueEmail(), agent);
  t.is(network.status, 429);
  t.regex(network.html, /requested from your network/);
});

test.serial('open registration: at most N per client address', async (t) => {
  const register = () =>
    fetch(`${running.config.authUrl}/v1/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://localhost:3000/cb'], token_endpoint_auth_method: 'none' }),
    });
  // One registration was used by the test above.
  t.is((await register()).status, 201);
  t.is((await register()).status, 201);
  const refused = await register();
  t.is(refused.status, 429);
  t.truthy(refused.headers.get('retry-after'));
  const body = await jsonOf(refused);
  t.is(body.error, 'too_many_requests');
  t.regex(body.error_description, /reuse a registration/);
});

test('a stranger cannot use up a traveler’s sign-in budget from another network; a flood from many networks is still bounded', async (t) => {
  const limits = new AbuseLimits({
    keyPrefix: uniquePrefix(),
    policy: {
      signInCodesPerAddress: { points: 2, duration: 3600 },
      signInCodesPerAddressOverall: { points: 3, duration: 3600 },
      signInCodesPerClient: { points: 100, duration: 900 },
    },
  });
  const email = uniqueEmail();
  await limits.signInCode(email, '203.0.113.7');
  await limits.signInCode(email, '203.0.113.7');
  await t.throwsAsync(limits.signInCode(email, '203.0.113.7'), { instanceOf: RateLimitedError, message: /sent to this address/ });
  await t.notThrowsAsync(limits.signInCode(email, '198.51.100.20'), "the traveler's own network still gets a code");
  await t.throwsAsync(limits.signInCode(email, '192.0.2.99'), { instanceOf: RateLimitedError }, 'three codes an hour overall');
  await t.notThrowsAsync(limits.signInCode(uniqueEmail(), '192.0.2.99'));
});
