/**
 * The authorization code and PKCE (issue 22, item 6): what a wrong `code_verifier` does to the code, over
 * real HTTP, with a real flow (a registered public agent, or a partner's confidential client; a traveler signed
 * in on the hosted pages).
 * Our behaviour is oidc-provider's (lib/actions/grants/authorization_code.js, lib/helpers/pkce.js):
 * - the code is checked against the verifier before it is marked used, so a wrong or missing verifier is
 *   400 `invalid_grant` ("grant request is invalid") and spends nothing: the right verifier still redeems
 *   the code within its 60 seconds, however many wrong ones came first (none is counted);
 * - a verifier that breaks RFC 7636 §4.1 (43–128 characters of A-Z a-z 0-9 - . _ ~) is 400
 *   `invalid_request` naming the rule, and spends nothing either;
 * - a used code presented again with its verifier is `invalid_grant`, and every refresh token of the
 *   traveler's grant to the client is revoked (RFC 6749 §4.1.2, §10.5); access tokens, verified locally,
 *   live out their 15 minutes, as after Disconnect. Without the verifier, a replay revokes nothing;
 * - no code is issued without an S256 challenge (RFC 9700 §2.1.1, §4.8).
 * - two exchanges of one code at the same moment: one gets tokens, the other `invalid_grant` (marking the
 *   code used is a compare-and-set in the storage adapter).
 * Serial: one test moves the service's clock, and the machine is shared.
 */
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import type { Clock } from '../core/clock.js';
import { TestBrowser } from './helpers/browser.js';
import { jsonOf, type Json } from './helpers/http.js';
import {
  clientFor,
  createPartnerClient,
  oauth,
  PARTNER_REDIRECT,
  registerPublicClient,
  startAuthorization,
  travelerAuthorizes,
  uniqueEmail,
  userIdOf,
} from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const REDIRECT = 'http://localhost:53682/callback';
/** What every refused exchange of a code says: the library keeps which check failed to itself. */
const REFUSED = { error: 'invalid_grant', error_description: 'grant request is invalid' };

/** The service's clock runs `shift` milliseconds ahead of the wall clock (codes expire by it). */
let shift = 0;
const clock: Clock = { now: () => new Date(Date.now() + shift) };

let running: RunningService;

/** A client of the flow: how it authenticates at the token endpoint, and where its codes come back. */
interface Party {
  config: oauth.Configuration;
  clientId: string;
  redirect: string;
  /** Added to every token request: the public agent's client_id, or the partner client's Basic credentials. */
  body: Record<string, string>;
  headers: Record<string, string>;
  /** The partner's API key, which /v1/users/me takes beside its client's traveler tokens. */
  apiKey?: string;
}

/** A registered public agent: PKCE's own case, the verifier is all it has. */
let agent: Party;
/** A partner's confidential client: its access tokens open the REST API with the partner's key. */
let airline: Party;

test.before(async () => {
  running = await startService({}, { clock, rateLimitKeyPrefix: uniquePrefix() });
  const registered = await registerPublicClient(running, REDIRECT);
  const agentId = registered.clientMetadata().client_id;
  agent = { config: registered, clientId: agentId, redirect: REDIRECT, body: { client_id: agentId }, headers: {} };
  const partner = await createPartnerClient(running, 'PKCE Air');
  airline = {
    config: await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret)),
    clientId: partner.clientId,
    redirect: PARTNER_REDIRECT,
    body: {},
    headers: { authorization: `Basic ${Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString('base64')}` },
    apiKey: partner.apiKey,
  };
});
test.after.always(async () => {
  await running?.close();
});

interface IssuedCode {
  party: Party;
  code: string;
  verifier: string;
  challenge: string;
  browser: TestBrowser;
}

/** A traveler signs in and allows profile.read; the code comes back to `party`. `browser` keeps the session. */
async function freshCode(party: Party, browser = new TestBrowser(new URL(running.config.authUrl).origin)): Promise<IssuedCode> {
  const authorization = await startAuthorization(party.config, party.redirect, 'profile.read');
  const outcome = await travelerAuthorizes(running, browser, authorization.url, { email: uniqueEmail('pkce') });
  const code = outcome.redirectedTo?.searchParams.get('code');
  if (!code) throw new Error(`no code came back: ${outcome.stoppedAt?.status} ${outcome.stoppedAt?.html}`);
  return { party, code, verifier: authorization.verifier, challenge: authorization.url.searchParams.get('code_challenge') as string, browser };
}

interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

/** A raw token request of `party`; `undefined` fields are left out. */
async function tokenRequest(party: Party, fields: Record<string, string | undefined>): Promise<Answer> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...party.body, ...fields })) if (value !== undefined) body.append(name, value);
  const response = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...party.headers },
    body,
  });
  return { status: response.status, body: await jsonOf(response), headers: response.headers };
}

/** The code exchange, with exactly this `code_verifier` (`undefined`: none). */
const exchange = (issued: IssuedCode, codeVerifier: string | undefined) =>
  tokenRequest(issued.party, { grant_type: 'authorization_code', code: issued.code, redirect_uri: issued.party.redirect, code_verifier: codeVerifier });

const refresh = (party: Party, refreshToken: string) => tokenRequest(party, { grant_type: 'refresh_token', refresh_token: refreshToken });

/** The status of GET /v1/users/me with the airline's key and `accessToken`. */
async function meStatus(accessToken: string): Promise<number> {
  const response = await fetch(`${running.url}/v1/users/me`, { headers: { 'x-api-key': airline.apiKey as string, authorization: `Bearer ${accessToken}` } });
  await response.body?.cancel();
  return response.status;
}

/** When the stored code was marked used (null: not yet). */
async function consumedAt(code: string): Promise<Date | null> {
  const row = await running.service.db.knex('oidc_models').where({ kind: 'AuthorizationCode', id: code }).first('consumed_at');
  if (!row) throw new Error('the code is not stored');
  return row.consumed_at;
}

/** The right verifier redeems the code: an access token and a refresh token for profile.read. */
async function assertRedeems(t: ExecutionContext, issued: IssuedCode): Promise<Json> {
  const answer = await exchange(issued, issued.verifier);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.truthy(answer.body.access_token);
  t.truthy(answer.body.refresh_token);
  t.is(answer.body.scope, 'profile.read');
  return answer.body;
}

test.serial('a wrong code_verifier (well formed: another authorization’s) is 400 invalid_grant; the code is not spent: the right verifier redeems it', async (t) => {
  for (const party of [agent, airline]) {
    const name = party === agent ? 'public agent' : 'confidential partner client';
    const issued = await freshCode(party);
    // A code injected into another session of the client (RFC 9700 §4.5) comes with that session's verifier.
    const other = await startAuthorization(party.config, party.redirect, 'profile.read');
    const wrong = await exchange(issued, other.verifier);
    t.is(wrong.status, 400, name);
    t.deepEqual(wrong.body, REFUSED, `${name}: which check failed is not said`);
    t.is(wrong.headers.get('cache-control'), 'no-store', name);
    t.is(await consumedAt(issued.code), null, `${name}: the code is not marked used`);

    await assertRedeems(t, issued);
    t.truthy(await consumedAt(issued.code), `${name}: the successful exchange marked it used`);
  }
});

test.serial('no code_verifier, an empty one, or the challenge itself (a plain downgrade) is invalid_grant too; the code survives each', async (t) => {
  const issued = await freshCode(agent);
  for (const [name, verifier] of [
    ['missing', undefined],
    ['empty', ''],
    ['the challenge as the verifier', issued.challenge],
  ] as const) {
    const answer = await exchange(issued, verifier);
    t.is(answer.status, 400, name);
    t.deepEqual(answer.body, REFUSED, name);
  }
  t.is(await consumedAt(issued.code), null);
  await assertRedeems(t, issued);
});

test.serial('a code_verifier that breaks RFC 7636 §4.1 is 400 invalid_request naming the rule, and spends nothing', async (t) => {
  const issued = await freshCode(agent);
  const cases = [
    ['42 characters', 'a'.repeat(42), 'code_verifier must be a string with a minimum length of 43 characters'],
    ['129 characters', 'a'.repeat(129), 'code_verifier must be a string with a maximum length of 128 characters'],
    ['a "+"', `${'a'.repeat(43)}+`, 'code_verifier contains invalid characters'],
    ['a "/"', `${'a'.repeat(43)}/`, 'code_verifier contains invalid characters'],
    ['a "="', `${'a'.repeat(43)}=`, 'code_verifier contains invalid characters'],
    ['a space', `${'a'.repeat(21)} ${'a'.repeat(21)}`, 'code_verifier contains invalid characters'],
    ['a non-ASCII letter', `${'a'.repeat(42)}é`, 'code_verifier contains invalid characters'],
  ] as const;
  for (const [name, verifier, description] of cases) {
    const answer = await exchange(issued, verifier);
    t.is(answer.status, 400, name);
    t.deepEqual(answer.body, { error: 'invalid_request', error_description: description }, name);
  }
  t.is(await consumedAt(issued.code), null);
  await assertRedeems(t, issued);
});

test.serial('wrong verifiers are not counted: the tenth is answered as the first, and the right verifier still redeems the code', async (t) => {
  const issued = await freshCode(agent);
  for (let attempt = 1; attempt <= 10; attempt++) {
    const answer = await exchange(issued, oauth.randomPKCECodeVerifier());
    t.is(answer.status, 400, `attempt ${attempt}`);
    t.deepEqual(answer.body, REFUSED, `attempt ${attempt}`);
  }
  t.is(await consumedAt(issued.code), null);
  await assertRedeems(t, issued);
});

test.serial('after a wrong verifier the code keeps its 60-second lifetime: redeemable at 55 s, gone (invalid_grant) at 61 s', async (t) => {
  const early = await freshCode(agent);
  const late = await freshCode(agent);
  for (const issued of [early, late]) t.deepEqual((await exchange(issued, oauth.randomPKCECodeVerifier())).body, REFUSED);
  try {
    shift = 55_000;
    await assertRedeems(t, early);
    shift = 61_000;
    const expired = await exchange(late, late.verifier);
    t.is(expired.status, 400);
    t.deepEqual(expired.body, REFUSED);
  } finally {
    shift = 0;
  }
});

test.serial('a used code presented again with its verifier: invalid_grant, every refresh token of the grant is revoked, access tokens live out their 15 minutes, consent stays', async (t) => {
  const first = await freshCode(airline);
  const tokens = await assertRedeems(t, first);
  // The same traveler authorizes the client again in the same browser: the same grant, a second refresh token.
  const second = await freshCode(airline, first.browser);
  const later = await assertRedeems(t, second);
  t.is((await refresh(airline, tokens.refresh_token)).status, 200, 'the refresh token works before the replay');
  t.is(await meStatus(tokens.access_token), 200, 'so does the access token');

  const replay = await exchange(first, first.verifier);
  t.is(replay.status, 400);
  t.deepEqual(replay.body, REFUSED);

  for (const [name, refreshToken] of [
    ['the replayed code’s refresh token', tokens.refresh_token],
    ['the later authorization’s refresh token', later.refresh_token],
  ]) {
    const refused = await refresh(airline, refreshToken);
    t.is(refused.status, 400, name);
    t.deepEqual(refused.body, REFUSED, name);
  }
  const rows = await running.service.db
    .knex('oidc_models')
    .where({ client_id: airline.clientId, account_id: userIdOf(tokens.access_token) })
    .whereIn('kind', ['RefreshToken', 'Grant'])
    .select('kind');
  t.deepEqual(
    rows.map((row) => row.kind),
    ['Grant'],
    'no refresh token is left; the grant (the traveler’s consent) is kept (revokeGrantPolicy)',
  );
  // Access tokens are JWTs verified without a lookup: there is nothing to revoke (README, Connected apps).
  t.is(await meStatus(tokens.access_token), 200);
  t.is(await meStatus(later.access_token), 200);

  // Consent stays: the next authorization in that browser comes straight back with a code, which works.
  const again = await startAuthorization(airline.config, airline.redirect, 'profile.read');
  const outcome = await travelerAuthorizes(running, first.browser, again.url, { email: 'unused@example.com' });
  t.is(outcome.offered, undefined, 'no consent page');
  const code = outcome.redirectedTo?.searchParams.get('code') as string;
  await assertRedeems(t, { party: airline, code, verifier: again.verifier, challenge: '', browser: first.browser });
});

test.serial('a used code presented again without its verifier (wrong or none): invalid_grant, and nothing is revoked', async (t) => {
  // PKCE is checked before whether the code was used: someone who saw only the code cannot revoke the
  // client's tokens with it.
  const issued = await freshCode(agent);
  const tokens = await assertRedeems(t, issued);
  for (const [name, verifier] of [
    ['a wrong verifier', oauth.randomPKCECodeVerifier()],
    ['no verifier', undefined],
  ] as const) {
    const replay = await exchange(issued, verifier);
    t.is(replay.status, 400, name);
    t.deepEqual(replay.body, REFUSED, name);
  }
  const refreshed = await refresh(agent, tokens.refresh_token);
  t.is(refreshed.status, 200, `the refresh token still works: ${JSON.stringify(refreshed.body)}`);
});

test.serial('no code is issued without an S256 challenge (RFC 9700 §4.8): the browser goes back to the client with invalid_request', async (t) => {
  const cases = [
    ['no challenge', {}, 'Authorization Server policy requires PKCE to be used for this request'],
    ['plain', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'not supported value of code_challenge_method'],
    ['a challenge without its method', { code_challenge: 'a'.repeat(43) }, 'code_challenge_method must be provided'],
  ] as const;
  for (const [name, extra, description] of cases) {
    const url = oauth.buildAuthorizationUrl(agent.config, { redirect_uri: REDIRECT, scope: 'profile.read', state: 'the-state', ...extra });
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    t.is(response.status, 303, name);
    const back = new URL(response.headers.get('location') as string);
    t.is(`${back.origin}${back.pathname}`, REDIRECT, name);
    t.is(back.searchParams.get('error'), 'invalid_request', name);
    t.is(back.searchParams.get('error_description'), description, name);
    t.is(back.searchParams.get('code'), null, name);
  }
});

/*
 * The library reads the code (not used yet), checks it, then marks it used (lib/helpers/grant_source.js,
 * consumeGrantSource): two exchanges that both read the code before either marks it would both get tokens,
 * were it not for consume in authz/oidc-adapter.ts, which refuses (invalid_grant) when its UPDATE ... WHERE
 * consumed_at IS NULL changed no row. The race is made certain, not hoped for: a lock on the code's row
 * holds both exchanges at that UPDATE until both are there.
 */
test.serial('two exchanges of one code at the same moment: only one gets tokens, the other invalid_grant (RFC 6749 §4.1.2)', async (t) => {
  const issued = await freshCode(agent);
  const locker = new pg.Client({ connectionString: running.config.databaseUrl });
  await locker.connect();
  let exchanges: Promise<Answer>[] = [];
  try {
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM oidc_models WHERE kind = 'AuthorizationCode' AND id = $1 FOR UPDATE`, [issued.code]);
    exchanges = [exchange(issued, issued.verifier), exchange(issued, issued.verifier)];
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await running.service.db.knex.raw(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%consumed_at%'`,
      );
      if (rows[0].waiting === 2) break;
      if (Date.now() > deadline) throw new Error(`the exchanges did not both reach the code's UPDATE (${rows[0].waiting} waiting)`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end();
  }
  const answers = await Promise.all(exchanges);
  t.deepEqual(
    answers.map((answer) => answer.status).sort(),
    [200, 400],
    `statuses ${answers.map((answer) => answer.status).join(', ')}: a code must not be redeemed twice`,
  );
  t.deepEqual(answers.find((answer) => answer.status === 400)?.body, REFUSED);
});
