/**
 * Saved payment methods over REST, with real vault tokens made the way the hosted card fields make them
 * (a signed-in browser's tokenization session, the card posted straight to the vault sandbox) and real
 * OAuth: saving, reading, changing and deleting; what the vault says is what is stored, never the body;
 * scopes; ownership across partners and travelers; legacy cards imported with the admin command; one
 * default under concurrent edits on PostgreSQL; what is stored in the database.
 */
import test from 'ava';
import { runAdminCommand } from '../admin/commands.js';
import { SANDBOX_VAULT_KEY } from '../config.js';
import { SecretBox } from '../core/crypto/secret-box.js';
import { asPartner, cardTraveler, MASTERCARD, saveCard, vaultToken, type CardTraveler } from './helpers/cards.js';
import { jsonOf, type Json } from './helpers/http.js';
import { authorize, registerPublicClient, uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
/** Two travelers of one partner, and a traveler of another partner; all with both payment scopes. */
let ada: CardTraveler;
let grace: CardTraveler;
let other: CardTraveler;

const BOTH = 'payments.read payments.write';

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ada = await cardTraveler(running, BOTH);
  grace = await cardTraveler(running, BOTH, ada.partner);
  other = await cardTraveler(running, BOTH);
});
test.after.always(async () => {
  await running?.close();
});

const methods = (who: CardTraveler, rest = '', init: { method?: string; body?: unknown } = {}) => asPartner(running, who, `/v1/users/me/payment-methods${rest}`, init);
const knex = () => running.service.db.knex;

function importLegacy(user: string, extra: string[] = []) {
  const argv = ['payment-method', 'import-legacy', '--user', user, '--brand', 'amex', '--last4', '0005', '--exp-month', '3', '--exp-year', '2029', ...extra];
  return runAdminCommand(argv, { partners: running.service.partners, clients: running.service.partnerClients, paymentMethods: running.service.paymentMethods }) as Promise<{ id: string }>;
}

test('a card saved from a vault token: its network, last four and expiry come from the vault; read, changed and deleted', async (t) => {
  const traveler = await cardTraveler(running, BOTH);
  const token = await vaultToken(running, traveler.browser, { number: MASTERCARD, month: 7, year: 2031 });
  const created = await methods(traveler, '/from-token', { body: { vaultToken: token } });
  t.is(created.status, 201);
  const { id } = await jsonOf(created);

  const read = await jsonOf(await asPartner(running, traveler, `/v1/users/${traveler.userId}/payment-methods/${id}`));
  t.deepEqual(Object.keys(read).sort(), ['brand', 'createdAt', 'expMonth', 'expYear', 'id', 'isDefault', 'last4', 'methodType', 'updatedAt', 'userId']);
  t.like(read, { id, userId: traveler.userId, methodType: 'credit_card', brand: 'mastercard', last4: '4444', expMonth: 7, expYear: 2031, isDefault: true });

  const changed = await methods(traveler, `/${id}`, { method: 'PUT', body: { expMonth: 8, expYear: 2032, cardholderName: 'Ada Lovelace', zip: 'SW1A 1AA' } });
  t.is(changed.status, 200);
  t.like(await jsonOf(changed), { expMonth: 8, expYear: 2032, brand: 'mastercard' });
  const inVault = await jsonOf(await fetch(`${running.config.vault?.url}/tokens/${token}`, { headers: { 'BT-API-KEY': SANDBOX_VAULT_KEY } }));
  t.like(inVault.metadata, { cardholder_name: 'Ada Lovelace', billing_zip: 'SW1A 1AA' }, 'name and ZIP are kept in the vault');
  await methods(traveler, `/${id}`, { method: 'PUT', body: { zip: null } });
  const cleared = await jsonOf(await fetch(`${running.config.vault?.url}/tokens/${token}`, { headers: { 'BT-API-KEY': SANDBOX_VAULT_KEY } }));
  t.falsy(cleared.metadata?.billing_zip, 'null clears the ZIP');
  t.is(cleared.metadata?.cardholder_name, 'Ada Lovelace', 'and keeps the name');

  t.is((await methods(traveler, `/${id}`, { method: 'DELETE' })).status, 204);
  t.is((await methods(traveler, `/${id}`)).status, 404);
  t.deepEqual(await jsonOf(await methods(traveler)), []);
  const redacted = await fetch(`${running.config.vault?.url}/tokens/${token}`, { headers: { 'BT-API-KEY': SANDBOX_VAULT_KEY } });
  t.is(redacted.status, 404, 'the vault redacted the token');
});

test('what is stored: the vault token sealed to its row, a digest of it, no card data beyond network, last four and expiry', async (t) => {
  const traveler = await cardTraveler(running, BOTH);
  const token = await vaultToken(running, traveler.browser);
  const { id } = await jsonOf(await methods(traveler, '/from-token', { body: { vaultToken: token } }));
  const row = await knex()('payment_methods').where({ id }).first();
  t.true(SecretBox.isSealed(row.vault_token));
  t.false(JSON.stringify(row).includes(token), 'the token id is nowhere in clear');
  t.truthy(row.vault_token_digest);
  t.truthy(row.fingerprint, 'the vault’s fingerprint is kept');
  t.like(row, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, legacy_reference: null, method_type: 'credit_card' });
});

test('from-token never takes the card from the body: network, last four or expiry sent are refused as unknown fields', async (t) => {
  const token = await vaultToken(running, ada.browser);
  const response = await methods(ada, '/from-token', { body: { vaultToken: token, brand: 'amex', last4: '0005', expMonth: 1, expYear: 2049 } });
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.deepEqual(Object.keys(body.fields).sort(), ['brand', 'expMonth', 'expYear', 'last4']);
  t.is(body.fields.brand.rule, 'unknown_field');
  const saved = await jsonOf(await methods(ada, '/from-token', { body: { vaultToken: token } }));
  t.like(await jsonOf(await methods(ada, `/${saved.id}`)), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
});

test('a token is saved once; an unknown token and one made in another traveler’s session are refused alike', async (t) => {
  const token = await vaultToken(running, ada.browser);
  t.is((await methods(ada, '/from-token', { body: { vaultToken: token } })).status, 201);
  const again = await methods(ada, '/from-token', { body: { vaultToken: token } });
  t.is(again.status, 409);
  t.is((await jsonOf(again)).code, 'payment_method_exists');

  const unknown = await jsonOf(await methods(ada, '/from-token', { body: { vaultToken: crypto.randomUUID() } }));
  const gracesToken = await vaultToken(running, grace.browser);
  const foreign = await methods(ada, '/from-token', { body: { vaultToken: gracesToken } });
  t.is(foreign.status, 400);
  const foreignBody = await jsonOf(foreign);
  t.is(foreignBody.fields.vaultToken.rule, 'vault_token');
  // Each answer has its own request id; everything else is the same.
  const { request_id: _foreignRequest, ...foreignAnswer } = foreignBody;
  const { request_id: _unknownRequest, ...unknownAnswer } = unknown;
  t.deepEqual(foreignAnswer, unknownAnswer, 'the same answer: nothing tells that the token exists');
  const othersToken = await vaultToken(running, other.browser);
  t.is((await methods(ada, '/from-token', { body: { vaultToken: othersToken } })).status, 400, 'nor a token of another partner’s traveler');
  t.is((await methods(grace, '/from-token', { body: { vaultToken: gracesToken } })).status, 201, 'its own traveler saves it');
  t.is((await methods(ada, '/from-token', { body: { vaultToken: 'not-a-uuid' } })).status, 400);
});

test('the first card becomes the default; isDefault true moves it; false leaves none; the list has the default first, then the newest', async (t) => {
  const traveler = await cardTraveler(running, BOTH);
  const first = await saveCard(running, traveler);
  const second = await saveCard(running, traveler);
  const third = await saveCard(running, traveler, { number: MASTERCARD }, true);
  let list = await jsonOf(await methods(traveler));
  t.deepEqual(
    list.map((card: Json) => [card.id, card.isDefault]),
    [
      [third, true],
      [second, false],
      [first, false],
    ],
  );
  t.like(await jsonOf(await methods(traveler, `/${first}`, { method: 'PUT', body: { isDefault: true } })), { isDefault: true });
  list = await jsonOf(await methods(traveler));
  t.deepEqual(list.filter((card: Json) => card.isDefault).map((card: Json) => card.id), [first]);
  t.like(await jsonOf(await methods(traveler, `/${first}`, { method: 'PUT', body: { isDefault: false } })), { isDefault: false });
  t.false((await jsonOf(await methods(traveler))).some((card: Json) => card.isDefault), 'no default left');
  const notDefault = await saveCard(running, traveler, {}, false);
  t.false((await jsonOf(await methods(traveler, `/${notDefault}`))).isDefault);
});

test('edits: an expiry in the past is refused, an empty edit is refused, an unknown field is refused', async (t) => {
  const id = await saveCard(running, ada);
  const past = await methods(ada, `/${id}`, { method: 'PUT', body: { expMonth: 1, expYear: 2024 } });
  t.is(past.status, 400);
  t.is((await jsonOf(past)).fields.expYear.rule, 'not_expired');
  t.is((await methods(ada, `/${id}`, { method: 'PUT', body: {} })).status, 400);
  t.is((await methods(ada, `/${id}`, { method: 'PUT', body: { last4: '1111' } })).status, 400);
  t.is((await methods(ada, `/${id}`, { method: 'PUT', body: { expMonth: 13 } })).status, 400);
  t.is((await methods(ada, `/${id}`, { method: 'PUT', body: { cardholderName: 'x'.repeat(101) } })).status, 400);
  t.is((await methods(ada, `/${id}`, { method: 'PUT', body: { zip: '1' } })).status, 400);
  t.like(await jsonOf(await methods(ada, `/${id}`)), { expMonth: 12, expYear: 2030 }, 'unchanged');
});

test('scopes: read lists and reads only; write changes only (write does not imply read); neither is 403', async (t) => {
  const id = await saveCard(running, ada);
  const reader = await cardTraveler(running, 'payments.read');
  const writer = await cardTraveler(running, 'payments.write');
  const neither = await cardTraveler(running, 'profile.read');
  t.is((await methods(reader)).status, 200);
  for (const [who, init, rest, scope] of [
    [reader, { method: 'PUT', body: { isDefault: true } }, `/${id}`, 'payments.write'],
    [reader, { method: 'DELETE' }, `/${id}`, 'payments.write'],
    [reader, { body: { vaultToken: crypto.randomUUID() } }, '/from-token', 'payments.write'],
    [writer, {}, '', 'payments.read'],
    [writer, {}, `/${id}`, 'payments.read'],
    [neither, {}, '', 'payments.read'],
    [neither, { method: 'DELETE' }, `/${id}`, 'payments.write'],
  ] as const) {
    const response = await methods(who, rest, init);
    t.is(response.status, 403, `${init.method ?? 'GET'} ${rest}`);
    t.like(await jsonOf(response), { error: 'insufficient_scope', scope });
  }
  // The writer saves a card of its own: from-token needs write only.
  t.is((await methods(writer, '/from-token', { body: { vaultToken: await vaultToken(running, writer.browser) } })).status, 201);
});

test('ownership: another traveler’s card is a 404 to every traveler of every partner; another traveler’s id in the path is 403', async (t) => {
  const id = await saveCard(running, ada);
  for (const who of [grace, other]) {
    for (const [init, label] of [
      [{}, 'GET'],
      [{ method: 'PUT', body: { isDefault: true } }, 'PUT'],
      [{ method: 'PUT', body: { cardholderName: 'Mallory' } }, 'PUT name'],
      [{ method: 'DELETE' }, 'DELETE'],
    ] as const) {
      const response = await methods(who, `/${id}`, init);
      t.is(response.status, 404, label);
      t.is((await jsonOf(response)).code, 'payment_method_not_found');
    }
    t.false((await jsonOf(await methods(who))).some((card: Json) => card.id === id));
    t.is((await asPartner(running, who, `/v1/users/${ada.userId}/payment-methods`)).status, 403);
    t.is((await asPartner(running, who, `/v1/users/${ada.userId}/payment-methods/${id}`)).status, 403);
  }
  t.is((await methods(ada, '/not-a-uuid')).status, 404);
  t.is((await methods(ada, `/${crypto.randomUUID()}`)).status, 404);
  t.like(await jsonOf(await methods(ada, `/${id}`)), { id }, 'still there, unchanged');
});

test('an agent’s token (self-registered, for the tool endpoint) is refused on the REST routes by its audience', async (t) => {
  const config = await registerPublicClient(running);
  const { tokens } = await authorize(running, config, {
    redirectUri: 'http://localhost:53682/callback',
    scope: BOTH,
    traveler: { email: uniqueEmail() },
    extra: { resource: `${running.url}/v1/mcp` },
  });
  const response = await asPartner(running, { partner: ada.partner, token: tokens.access_token }, '/v1/users/me/payment-methods');
  t.is(response.status, 401);
});

test('legacy cards imported with the admin command: listed, read, expiry and default changed, deleted; no cardholder name or ZIP', async (t) => {
  const traveler = await cardTraveler(running, BOTH);
  const { id } = await importLegacy(traveler.email.toUpperCase(), ['--legacy-reference', 'cus_123/pm_456', '--default']);
  const byId = await importLegacy(traveler.userId, ['--method-type', 'apple_pay']);
  const list = await jsonOf(await methods(traveler));
  t.deepEqual(list.map((card: Json) => card.id), [id, byId.id]);
  t.like(list[0], { brand: 'amex', last4: '0005', expMonth: 3, expYear: 2029, isDefault: true, methodType: 'credit_card' });
  t.like(list[1], { methodType: 'apple_pay', isDefault: false });
  const row = await knex()('payment_methods').where({ id }).first();
  t.is(row.vault_token, null);
  t.true(SecretBox.isSealed(row.legacy_reference), 'the old processor’s ids are sealed');

  for (const body of [{ cardholderName: 'Ada' }, { zip: '12345' }, { zip: null, expMonth: 4 }]) {
    const refused = await methods(traveler, `/${id}`, { method: 'PUT', body });
    t.is(refused.status, 422);
    t.is((await jsonOf(refused)).code, 'legacy_payment_method');
  }
  t.like(await jsonOf(await methods(traveler, `/${id}`)), { expMonth: 3 }, 'nothing changed');
  t.like(await jsonOf(await methods(traveler, `/${id}`, { method: 'PUT', body: { expMonth: 5, expYear: 2030 } })), { expMonth: 5, expYear: 2030 });
  t.like(await jsonOf(await methods(traveler, `/${byId.id}`, { method: 'PUT', body: { isDefault: true } })), { isDefault: true });
  t.false((await jsonOf(await methods(traveler, `/${id}`))).isDefault);
  t.is((await methods(traveler, `/${id}`, { method: 'DELETE' })).status, 204);
  t.is((await methods(traveler, `/${id}`)).status, 404);

  await t.throwsAsync(importLegacy('nobody@example.com'), { message: /no traveler/ });
  await t.throwsAsync(
    runAdminCommand(['payment-method', 'import-legacy', '--user', traveler.userId, '--brand', 'diners', '--last4', '1234', '--exp-month', '1', '--exp-year', '2030'], {
      partners: running.service.partners,
      clients: running.service.partnerClients,
      paymentMethods: running.service.paymentMethods,
    }),
    { message: /--brand must be one of/ },
  );
  await t.throwsAsync(importLegacy(traveler.userId, ['--last4', '12a4']));
});

test('concurrent isDefault edits on PostgreSQL leave exactly one default, round after round', async (t) => {
  const traveler = await cardTraveler(running, BOTH);
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push((await importLegacy(traveler.userId)).id);
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all(ids.map((id) => methods(traveler, `/${id}`, { method: 'PUT', body: { isDefault: true } })));
    t.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200],
    );
    const defaults = await knex()('payment_methods').where({ user_id: traveler.userId, is_default: true });
    t.is(defaults.length, 1, `round ${round}`);
  }
});
