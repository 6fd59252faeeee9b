/**
 * What anyone may make the service do without credentials is bounded: sign-in codes to one address, and
 * from one client address; open registrations from one client address. Over the limit: 429 with
 * Retry-After and a message saying how long to wait.
 */
import test from 'ava';
import { isPage, TestBrowser } from './helpers/browser.js';
import { jsonOf } from './helpers/http.js';
import { registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { AbuseLimits, DEFAULT_ABUSE_POLICY } from '../authz/abuse-limits.js';
import { networkOf } from '../authz/networks.js';
import { RateLimitedError } from '../core/errors.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService(
    {},
    {
      abusePolicy: {
        signInCodesPerAddress: { points: 3, duration: 3600 },
        signInCodesPerNetwork: { points: 6, duration: 900 },
        registrationsPerNetwork: { points: 3, duration: 3600 },
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

test.serial('open registration: at most N per network', async (t) => {
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

test('codes are counted per network (IPv4 /24, IPv6 /64); past the cap for an address, a new network still gets one, paced', async (t) => {
  const limits = new AbuseLimits({
    keyPrefix: uniquePrefix(),
    policy: {
      signInCodesPerAddress: { points: 2, duration: 3600 },
      signInCodesPerAddressOverall: { points: 3, duration: 3600 },
      signInCodePaceSeconds: 60,
      signInCodesPerNetwork: { points: 100, duration: 900 },
    },
  });
  const email = uniqueEmail();
  await limits.signInCode(email, '203.0.113.7');
  await limits.signInCode(email, '203.0.113.8');
  await t.throwsAsync(limits.signInCode(email, '203.0.113.200'), { instanceOf: RateLimitedError, message: /sent to this address/ }, 'one /24 is one network');
  await t.notThrowsAsync(limits.signInCode(email, '198.51.100.20'), "the traveler's own network still gets a code");
  // Three codes overall: the address is paced now, not locked.
  await t.notThrowsAsync(limits.signInCode(email, '192.0.2.99'), 'a network new to this address gets one');
  const paced = await t.throwsAsync(limits.signInCode(email, '2001:db8:1:2::5'), { instanceOf: RateLimitedError, message: /one a minute/ });
  t.true((paced as RateLimitedError).retryAfterSeconds <= 60);
  await t.throwsAsync(limits.signInCode(email, '2001:db8:1:2:ffff::1'), { instanceOf: RateLimitedError }, 'one /64 is one network');
  await t.notThrowsAsync(limits.signInCode(uniqueEmail(), '192.0.2.99'), 'other addresses are not affected');
});

test('networks: IPv4 by /24, IPv6 by /64, IPv4 written as IPv6 as IPv4', (t) => {
  t.is(networkOf('203.0.113.7'), '203.0.113.0/24');
  t.is(networkOf('::ffff:203.0.113.7'), '203.0.113.0/24');
  t.is(networkOf('2001:db8:1:2::5'), '2001:db8:1:2::/64');
  t.is(networkOf('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  t.is(networkOf('::1'), '0:0:0:0::/64');
  t.is(networkOf('fe80::1%eth0'), 'fe80:0:0:0::/64');
  t.is(networkOf('203.0.113.7:51234'), '203.0.113.0/24', 'a port some proxies write is not part of the address');
  t.is(networkOf('[2001:db8:1:2::5]:443'), '2001:db8:1:2::/64');
});

test('ten codes for a traveler’s address from each of five networks do not lock the traveler out of signing in', async (t) => {
  // Behind a proxy (TRUST_PROXY=1) the client address is the one the proxy adds to X-Forwarded-For.
  const proxied = await startService({ TRUST_PROXY: '1' }, { rateLimitKeyPrefix: uniquePrefix(), abusePolicy: { ...DEFAULT_ABUSE_POLICY } });
  try {
    const agent = await registerPublicClient(proxied);
    const victim = uniqueEmail('victim');
    const askFrom = async (address: string) => {
      const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
      const browser = new TestBrowser(new URL(proxied.config.authUrl).origin, { 'x-forwarded-for': address });
      const page = await browser.open(authorization.url.href);
      if (!isPage(page)) throw new Error('expected the e-mail page');
      const answer = await browser.submit(page, '/email', { email: victim });
      if (!isPage(answer)) throw new Error('expected a page');
      return answer;
    };
    const attackers = ['203.0.113.10', '198.51.100.10', '192.0.2.10', '100.64.7.10', '2001:db8:bad::10'];
    for (const attacker of attackers) {
      for (let i = 0; i < 10; i++) t.is((await askFrom(attacker)).status, 200, `${attacker} #${i + 1}`);
    }
    const eleventh = await askFrom('203.0.113.77');
    t.is(eleventh.status, 429, 'another address of an attacker’s /24 is the same network');

    // The traveler, from their own network: a code, not a lockout.
    const own = await askFrom('203.0.114.5');
    t.is(own.status, 200);
    t.regex(own.html, /We sent a \d-digit code/);
    // The inbox is bounded: past 50 an hour, mail to the address is paced to one a minute.
    const paced = await askFrom('2001:db8:cafe::1');
    t.is(paced.status, 429);
    t.true(Number(paced.headers.get('retry-after')) <= 60);
    t.regex(paced.html, /one a minute/);
    const inbox = await jsonOf(await fetch(`${proxied.url}/sandbox/mail/messages?to=${encodeURIComponent(victim)}`));
    t.is(inbox.length, 51);
  } finally {
    await proxied.close();
  }
});
