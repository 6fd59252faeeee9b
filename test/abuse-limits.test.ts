/**
 * What anyone may make the service do without credentials is bounded: sign-in codes to one address, and
 * from one client address; open registrations from one client address. Over the limit: 429 with
 * Retry-After and a message saying how long to wait.
 */
import test from 'ava';
import { isPage, latestCode, TestBrowser } from './helpers/browser.js';
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

test.serial('sign-in codes: at most N per address, then per network; 429 says how long to wait', async (t) => {
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

  // Other addresses use up the per-network budget of 6 (a refused request sends nothing and counts nothing).
  for (let i = 0; i < 3; i++) t.is((await askForCode(uniqueEmail(), agent)).status, 200);
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

test('ten codes for a traveler’s address from each of five networks lock the traveler out neither from home nor from a new network', async (t) => {
  // Behind a proxy (TRUST_PROXY=1) the client address is the one the proxy adds to X-Forwarded-For.
  const proxied = await startService({ TRUST_PROXY: '1' }, { rateLimitKeyPrefix: uniquePrefix(), abusePolicy: { ...DEFAULT_ABUSE_POLICY } });
  try {
    const agent = await registerPublicClient(proxied);
    const victim = uniqueEmail('victim');
    const home = '203.0.114.5';
    const browserFrom = (address: string) => new TestBrowser(new URL(proxied.config.authUrl).origin, { 'x-forwarded-for': address });
    const askFrom = async (address: string, browser = browserFrom(address)) => {
      const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
      const page = await browser.open(authorization.url.href);
      if (!isPage(page)) throw new Error('expected the e-mail page');
      const answer = await browser.submit(page, '/email', { email: victim });
      if (!isPage(answer)) throw new Error('expected a page');
      return { answer, browser, authorization };
    };
    // The traveler has signed in from home before.
    const first = await askFrom(home);
    const signedIn = await first.browser.submit(first.answer, '/code', { code: await latestCode(proxied.url, victim) });
    t.false(isPage(signedIn) && signedIn.status >= 400, 'signed in');

    // Five networks ask ten times each. With the home sign-in, the fiftieth of the flood is the 51st code
    // this hour: from a network that asked ten times, it is refused.
    const attackers = ['203.0.113.10', '198.51.100.10', '192.0.2.10', '100.64.7.10', '2001:db8:bad::10'];
    for (const [n, attacker] of attackers.entries()) {
      for (let i = 0; i < 10; i++) t.is((await askFrom(attacker)).answer.status, n === 4 && i === 9 ? 429 : 200, `${attacker} #${i + 1}`);
    }
    t.is((await askFrom('203.0.113.77')).answer.status, 429, 'another address of an attacker’s /24 is the same network');

    // Past 50 an hour, a network new to the address gets one code, and mail to the address is paced.
    t.is((await askFrom('2001:db8:cafe::1')).answer.status, 200, 'a new network: one code');
    const paced = (await askFrom('2001:db8:beef::1')).answer;
    t.is(paced.status, 429);
    t.true(Number(paced.headers.get('retry-after')) <= 60);
    t.regex(paced.html, /one a minute/);

    // The traveler's home network is not paced: a code at once, even while the flood goes on.
    const fromHome = (await askFrom('203.0.114.99')).answer;
    t.is(fromHome.status, 200);
    t.regex(fromHome.html, /We sent a \d-digit code/);
    const inbox = await jsonOf(await fetch(`${proxied.url}/sandbox/mail/messages?to=${encodeURIComponent(victim)}`));
    t.is(inbox.length, 1 + 49 + 1 + 1, 'the first sign-in, the flood up to the cap, one paced code and the traveler’s');
  } finally {
    await proxied.close();
  }
});

test('asking again within the minute sends nothing and uses up nothing of the traveler’s budget', async (t) => {
  const limited = await startService({}, { rateLimitKeyPrefix: uniquePrefix(), abusePolicy: { signInCodesPerAddress: { points: 2, duration: 3600 } } });
  try {
    const agent = await registerPublicClient(limited);
    const email = uniqueEmail();
    const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
    const browser = new TestBrowser(new URL(limited.config.authUrl).origin);
    const page = await browser.open(authorization.url.href);
    if (!isPage(page)) throw new Error('expected the e-mail page');
    const codePage = await browser.submit(page, '/email', { email });
    if (!isPage(codePage)) throw new Error('expected the code page');
    for (let i = 0; i < 3; i++) {
      const again = await browser.submit(codePage, '/resend', {});
      t.true(isPage(again) && again.status === 429 && /once a minute/.test(again.html), 'a new code only once a minute');
    }
    const inbox = await jsonOf(await fetch(`${limited.url}/sandbox/mail/messages?to=${encodeURIComponent(email)}`));
    t.is(inbox.length, 1);
    // One code went out, so a second sign-in from this network still gets one (2 an hour): the refused
    // resends counted nothing.
    const secondBrowser = new TestBrowser(new URL(limited.config.authUrl).origin);
    const page2 = await secondBrowser.open((await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read')).url.href);
    if (!isPage(page2)) throw new Error('expected the e-mail page');
    const second = await secondBrowser.submit(page2, '/email', { email });
    t.true(isPage(second) && second.status === 200, 'the second sign-in got its code');
    t.is((await jsonOf(await fetch(`${limited.url}/sandbox/mail/messages?to=${encodeURIComponent(email)}`))).length, 2);
  } finally {
    await limited.close();
  }
});
