/**
 * The contact change end to end: codes read from the mail and SMS sandboxes, the three steps bound to
 * each other, and afterwards the next sign-in by the new e-mail finds the same traveler while the old one
 * makes a new account. Also: an e-mail of another account is 409, values must match, codes lock after
 * five wrong tries, a phone change verifies the phone.
 */
import test from 'ava';
import fc from 'fast-check';
import { latestCode } from './helpers/browser.js';
import { answersInOurEnvelope, deeplyNested, hostileText } from './helpers/hostile.js';
import { jsonOf, type Json } from './helpers/http.js';
import { authorize, clientFor, oauth, PARTNER_REDIRECT, partnerWithTraveler, type PartnerClient, uniqueEmail, userIdOf } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;


test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

/** A traveler signed in through a partner's client, with the address they signed in with. */
async function traveler(): Promise<{ partner: PartnerClient; token: string; email: string; userId: string }> {
  const partner = await partnerWithTraveler(running, 'Contact Air', 'profile.read');
  const email = uniqueEmail('contact');
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read profile.write', traveler: { email } });
  return { partner, token: tokens.access_token, email, userId: userIdOf(tokens.access_token) };
}

function step(who: { partner: PartnerClient; token: string }, name: string, body: Json) {
  return fetch(`${running.url}/v1/users/me/contact/${name}`, {
    method: 'POST',
    headers: { 'x-api-key': who.partner.apiKey, authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function latestSms(phone: string): Promise<string> {
  const messages = (await jsonOf(await fetch(`${running.url}/sandbox/sms/messages?to=${encodeURIComponent(phone)}`))) as { text: string }[];
  return /\b(\d{8})\b/.exec(messages[0]?.text ?? '')?.[1] as string;
}

test('an e-mail change end to end; the next sign-in by the new address is the same traveler, the old address a new one', async (t) => {
  const ada = await traveler();
  const newEmail = uniqueEmail('new');
  const initiated = await step(ada, 'initiate', { contact_type: 'email', new_value: newEmail });
  t.is(initiated.status, 200);
  const { session, challenge_name: challenge } = await jsonOf(initiated);
  t.is(challenge, 'EMAIL_OTP');

  const wrongValue = await step(ada, 'verify-identity', { code: await latestCode(running.url, ada.email), session, contact_type: 'email', new_value: uniqueEmail() });
  t.is(wrongValue.status, 400);
  t.is((await jsonOf(wrongValue)).fields.new_value.rule, 'matches_initiate');

  const verified = await step(ada, 'verify-identity', { code: await latestCode(running.url, ada.email), session, contact_type: 'email', new_value: newEmail });
  t.is(verified.status, 200);
  const { access_token: accessToken } = await jsonOf(verified);
  t.truthy(accessToken, 'returned in the body');
  t.is(verified.headers.get('set-cookie'), null);

  const reused = await step(ada, 'verify-identity', { code: await latestCode(running.url, ada.email), session, contact_type: 'email', new_value: newEmail });
  t.is(reused.status, 404, 'a step is taken once');
  t.is((await step(ada, 'confirm', { code: await latestCode(running.url, newEmail), contact_type: 'email', access_token: `${accessToken}x` })).status, 400);

  const confirmed = await step(ada, 'confirm', { code: await latestCode(running.url, newEmail), contact_type: 'email', access_token: accessToken });
  t.is(confirmed.status, 200);
  t.is((await jsonOf(confirmed)).email, newEmail);
  t.is((await running.service.db.knex('users').where({ id: ada.userId }).first()).email, newEmail);

  // The next sign-in by the new address finds Ada; the old one makes a new account.
  const config = await clientFor(running, ada.partner.clientId, oauth.ClientSecretBasic(ada.partner.clientSecret));
  const again = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', traveler: { email: newEmail } });
  t.is(userIdOf(again.tokens.access_token), ada.userId);
  t.is(again.outcome.codeDigits, 8, 'a returning traveler');
  const old = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', traveler: { email: ada.email } });
  t.not(userIdOf(old.tokens.access_token), ada.userId);
  t.is(old.outcome.codeDigits, 6, 'a new traveler');
});

test('an e-mail of another account is 409, at initiate and again at confirm', async (t) => {
  const [ada, bob] = [await traveler(), await traveler()];
  const taken = await step(ada, 'initiate', { contact_type: 'email', new_value: bob.email.toUpperCase() });
  t.is(taken.status, 409);
  t.is((await jsonOf(taken)).code, 'contact_in_use');

  // Free at initiate, taken by the time of confirm.
  const wanted = uniqueEmail('wanted');
  const { session } = await jsonOf(await step(ada, 'initiate', { contact_type: 'email', new_value: wanted }));
  const { access_token: accessToken } = await jsonOf(
    await step(ada, 'verify-identity', { code: await latestCode(running.url, ada.email), session, contact_type: 'email', new_value: wanted }),
  );
  await running.service.db.knex('users').where({ id: bob.userId }).update({ email: wanted });
  const late = await step(ada, 'confirm', { code: await latestCode(running.url, wanted), contact_type: 'email', access_token: accessToken });
  t.is(late.status, 409);
  t.is((await running.service.db.knex('users').where({ id: ada.userId }).first()).email, ada.email);
});

test('a phone change: codes by SMS to the new number; the phone is then verified; new_value is required at confirm', async (t) => {
  const ada = await traveler();
  const phone = `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
  t.is((await step(ada, 'initiate', { contact_type: 'phone', new_value: '0770 090' })).status, 400);
  const { session } = await jsonOf(await step(ada, 'initiate', { contact_type: 'phone', new_value: phone }));
  const { access_token: accessToken } = await jsonOf(
    await step(ada, 'verify-identity', { code: await latestCode(running.url, ada.email), session, contact_type: 'phone', new_value: phone }),
  );
  const code = await latestSms(phone);
  t.regex(code, /^\d{8}$/);
  const withoutValue = await step(ada, 'confirm', { code, contact_type: 'phone', access_token: accessToken });
  t.is(withoutValue.status, 400);
  t.truthy((await jsonOf(withoutValue)).fields.new_value);
  const confirmed = await step(ada, 'confirm', { code, contact_type: 'phone', access_token: accessToken, new_value: phone });
  t.is(confirmed.status, 200);
  t.is((await jsonOf(confirmed)).phone_number, phone);
  t.true((await running.service.db.knex('users').where({ id: ada.userId }).first()).phone_verified);
});

test('codes lock after five wrong tries; another traveler’s session is not found', async (t) => {
  const [ada, bob] = [await traveler(), await traveler()];
  const wanted = uniqueEmail('locked');
  const { session } = await jsonOf(await step(ada, 'initiate', { contact_type: 'email', new_value: wanted }));
  t.is((await step(bob, 'verify-identity', { code: '000000', session, contact_type: 'email', new_value: wanted })).status, 404);
  for (let i = 0; i < 5; i++) {
    const wrong = await step(ada, 'verify-identity', { code: 'wrong!', session, contact_type: 'email', new_value: wanted });
    t.is(wrong.status, 400);
  }
  const locked = await step(ada, 'verify-identity', { code: await latestCode(running.url, ada.email), session, contact_type: 'email', new_value: wanted });
  t.is(locked.status, 410);
  t.is((await jsonOf(locked)).code, 'code_locked');
});

test('an expired code is 410 and the change must start again', async (t) => {
  const ada = await traveler();
  const wanted = uniqueEmail('expired');
  const { session } = await jsonOf(await step(ada, 'initiate', { contact_type: 'email', new_value: wanted }));
  await running.service.db.knex('contact_changes').where({ id: session }).update({ expires_at: new Date(Date.now() - 1000) });
  const expired = await step(ada, 'verify-identity', { code: await latestCode(running.url, ada.email), session, contact_type: 'email', new_value: wanted });
  t.is(expired.status, 410);
  t.is((await jsonOf(expired)).code, 'code_expired');
});

test('property: random, boundary and hostile bodies to the three steps are answered in our envelope, never a 5xx', async (t) => {
  const ada = await traveler();
  const { session } = await jsonOf(await step(ada, 'initiate', { contact_type: 'email', new_value: uniqueEmail('fuzz') }));
  const text = fc.oneof(hostileText(60), fc.constantFrom('', 'email', 'phone', '+447700900123', 'a@b.co', session, `${session}.x`, '000000'));
  const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }), deeplyNested());
  const body = fc.oneof(fc.dictionary(fc.constantFrom('contact_type', 'new_value', 'code', 'session', 'access_token', 'x'), value, { maxKeys: 5 }), value);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('initiate', 'verify-identity', 'confirm'), body, async (name, sent) => {
      return answersInOurEnvelope(await step(ada, name, sent));
    }),
    { numRuns: 100 },
  );
  t.pass();
});

test('after review: a contact change can be started 5 times an hour', async (t) => {
  const ada = await traveler();
  for (let i = 0; i < 5; i++) t.is((await step(ada, 'initiate', { contact_type: 'email', new_value: uniqueEmail(`try${i}`) })).status, 200);
  const sixth = await step(ada, 'initiate', { contact_type: 'email', new_value: uniqueEmail('sixth') });
  t.is(sixth.status, 429);
  t.is((await jsonOf(sixth)).code, 'too_many_contact_changes');
});

test('after review: probing whether addresses have accounts counts against the same 5 an hour', async (t) => {
  const [ada, bob] = [await traveler(), await traveler()];
  // Each probe names an address in use (one way of writing Bob's): 409 until the limit, then 429 like any start.
  for (let i = 0; i < 5; i++) {
    const probe = await step(ada, 'initiate', { contact_type: 'email', new_value: i % 2 ? bob.email.toUpperCase() : bob.email });
    t.is(probe.status, 409, `probe ${i + 1}`);
    t.is((await jsonOf(probe)).code, 'contact_in_use');
  }
  const sixth = await step(ada, 'initiate', { contact_type: 'email', new_value: bob.email });
  t.is(sixth.status, 429);
  t.is((await jsonOf(sixth)).code, 'too_many_contact_changes');
  t.truthy(sixth.headers.get('retry-after'));
  // A refused probe is no change: nothing was mailed to Ada's address for it.
  const mailed = await jsonOf(await fetch(`${running.url}/sandbox/mail/messages?to=${encodeURIComponent(ada.email)}`));
  t.false(mailed.some((message: { subject: string }) => message.subject === 'Confirm it is you'));
});
