/**
 * The vault sandbox's hosted card fields page over real HTTP: its headers (framed by the session's
 * origin only, our script and stylesheet only, no referrer), its inputs, and the error page of a bad or
 * expired session key. (The fields in a real browser are the card component's browser test.)
 */
import test from 'ava';
import { SANDBOX_VAULT_KEY } from '../config.js';
import { startVaultSandbox, type RunningVault } from './helpers/vault-sandbox.js';

let vault: RunningVault;

test.before(async () => {
  vault = await startVaultSandbox();
});
test.after.always(async () => {
  await vault?.close();
});

async function openSession(owner: string, origin: string): Promise<string> {
  const response = await fetch(`${vault.url}/sessions`, {
    method: 'POST',
    headers: { 'bt-api-key': SANDBOX_VAULT_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ owner, origin }),
  });
  if (response.status !== 201) throw new Error(`session not opened: ${response.status}`);
  return ((await response.json()) as { session_key: string }).session_key;
}

test('the hosted card fields page: framed by the session origin only, our script and styles only, no referrer', async (t) => {
  const session = await openSession('traveler-7', 'https://www.example-airline.com');
  const response = await fetch(`${vault.url}/elements/card?session_key=${encodeURIComponent(session)}`);
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /^text\/html/);
  const csp = response.headers.get('content-security-policy') ?? '';
  const directives = Object.fromEntries(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(' ')]));
  t.is(directives['default-src'], "'none'");
  t.is(directives['script-src'], "'self'");
  t.is(directives['style-src'], "'self'");
  t.is(directives['connect-src'], "'self'");
  t.is(directives['frame-ancestors'], 'https://www.example-airline.com');
  t.is(response.headers.get('referrer-policy'), 'no-referrer');
  t.is(response.headers.get('cache-control'), 'no-store');
  t.is(response.headers.get('x-frame-options'), null, 'frame-ancestors decides (X-Frame-Options cannot name an origin)');
  const page = await response.text();
  for (const [id, autocomplete] of [['number', 'cc-number'], ['expiry', 'cc-exp'], ['cvc', 'cc-csc']]) {
    t.regex(page, new RegExp(`<label for="${id}">`));
    t.regex(page, new RegExp(`<input id="${id}" name="${id}"[^>]* autocomplete="${autocomplete}"`));
  }
  const scripts = [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  t.is(scripts.length, 1);
  t.regex(scripts[0]?.[1] ?? '', /src="\/elements\/card\.js"/);
  t.is(scripts[0]?.[2], '', 'no inline script');
  t.false(/ on[a-z]+=/.test(page), 'no inline event handlers');
  t.false(/style=/.test(page), 'no inline styles');
  t.regex(page, /data-parent-origin="https:\/\/www\.example-airline\.com"/);

  const script = await fetch(`${vault.url}/elements/card.js`);
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /^text\/javascript/);
  t.is(script.headers.get('x-content-type-options'), 'nosniff');
  const source = await script.text();
  t.false(/postMessage\([^)]*'\*'/.test(source), 'messages go to the session origin only');
  t.regex(source, /event\.origin !== parentOrigin/);
  const stylesheet = await fetch(`${vault.url}/elements/card.css`);
  t.regex(stylesheet.headers.get('content-type') ?? '', /^text\/css/);
});

test.serial('the hosted fields with a bad or expired session key answer a short error page no one else may frame', async (t) => {
  for (const query of ['?session_key=key_test_session_nope', '?session_key=key_test_sandbox_service', '']) {
    const response = await fetch(`${vault.url}/elements/card${query}`);
    t.is(response.status, 404, query);
    t.regex(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const page = await response.text();
    t.regex(page, /expired or is not valid/);
    t.false(page.includes('<input'));
  }
  const session = await openSession('traveler-8', 'https://www.example-airline.com');
  vault.clock.advance(11 * 60_000);
  try {
    const expired = await fetch(`${vault.url}/elements/card?session_key=${encodeURIComponent(session)}`);
    t.is(expired.status, 410);
    t.regex(expired.headers.get('content-security-policy') ?? '', /frame-ancestors https:\/\/www\.example-airline\.com(;|$)/);
    t.false((await expired.text()).includes('<input'));
  } finally {
    vault.clock.advance(-11 * 60_000);
  }
});
