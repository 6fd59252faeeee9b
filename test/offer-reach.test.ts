/**
 * Offer reach (decisions §2) across every kind of caller: two partners, two travelers of one partner, and
 * a self-registered agent. A partner makes an offer over REST with its key; the offer belongs to no
 * traveler. Any traveler's agent that knows its id reaches it, and the first one that uses it claims it
 * for its traveler, atomically; from then on only that traveler reaches it, and the passenger details
 * kept for its order are never shown to anyone else.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { datedFixture } from '../providers/flights/provider-a/sandbox.js';
import { jsonOf, type Json } from './helpers/http.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, registerPublicClient, uniqueEmail, userIdOf, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partner: PartnerClient;
const endpoint = () => `${running.url}/v1/mcp`;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  partner = await createPartnerClient(running, 'Reach Air');
});
test.after.always(async () => {
  await running?.close();
});

/** A provider_a offer made over REST with the partner's key alone: it belongs to no traveler. */
async function partnerOffer(apiKey = partner.apiKey): Promise<string> {
  const native = datedFixture('cdg-dxb-family-eur', new Date());
  const created = await fetch(`${running.url}/v1/flights/providers/provider_a/offers`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(native),
  });
  if (created.status !== 201) throw new Error(`offer not created: ${created.status} ${await created.text()}`);
  return (await jsonOf(created)).offer_id;
}

/** A traveler's agent: a token for the tool endpoint, from the partner's client or a self-registered one. */
async function agentOf(kind: 'partner' | 'self-registered', audience = endpoint()): Promise<{ token: string; userId: string }> {
  const config =
    kind === 'partner' ? await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret)) : await registerPublicClient(running);
  const redirectUri = kind === 'partner' ? PARTNER_REDIRECT : 'http://localhost:53682/callback';
  const { tokens } = await authorize(running, config, { redirectUri, scope: 'bookings.write', traveler: { email: uniqueEmail() }, extra: { resource: audience } });
  return { token: tokens.access_token, userId: userIdOf(tokens.access_token) };
}

/** A tool's structured answer or its error code. */
async function tool(token: string, name: string, args: Json): Promise<{ ok?: Json; error?: Json }> {
  const response = await fetch(endpoint(), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const { result } = await jsonOf(response);
  return result.isError ? { error: JSON.parse(result.content[0].text).error } : { ok: result.structuredContent };
}

const ownerOf = async (offerId: string) => (await running.service.db.knex('offers').where({ id: offerId }).first('user_id', 'partner_id')) as { user_id: string | null; partner_id: string };

test('two travelers of one partner: the first one’s agent claims the offer; the second one’s neither reads nor overwrites its passengers', async (t) => {
  const offerId = await partnerOffer();
  const [ada, bob] = [await agentOf('partner'), await agentOf('partner')];
  const offer = { provider_id: 'provider_a', offer_id: offerId };

  const given = await tool(ada.token, 'update_passenger', { ...offer, passenger_id: '1', first_name: 'Ada', last_name: 'Lovelace', loyalty_programme_accounts: [{ airline_iata_code: 'AF', account_number: 'FB-77123' }] });
  t.like(given.ok, { given_name: 'Ada', family_name: 'Lovelace' });
  t.deepEqual(await ownerOf(offerId), { user_id: ada.userId, partner_id: partner.partnerId }, 'the first use claimed it for Ada');

  // Bob's agent: the same client of the same partner, another traveler.
  for (const [name, args] of [
    ['get_offer_details', offer],
    ['get_bags', offer],
    ['update_passenger', { ...offer, passenger_id: '1', first_name: 'Mallory' }],
  ] as const) {
    const answer = await tool(bob.token, name, args);
    t.is(answer.error?.code, 'offer_not_found', name);
    t.false(JSON.stringify(answer).includes('FB-77123'));
  }
  const kept = await running.service.db.knex('offer_passenger_details').where({ offer_id: offerId, provider_passenger_id: '1' }).first();
  t.like(kept.details, { first_name: 'Ada', last_name: 'Lovelace' }, 'Bob’s agent overwrote nothing');

  // Over REST with the partner's key and Bob's token it is the same; the partner's key alone still reads it.
  const bobOverRest = await agentOf('partner', running.config.baseUrl);
  const rest = await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}/passengers/1`, {
    method: 'PUT',
    headers: { 'x-api-key': partner.apiKey, authorization: `Bearer ${bobOverRest.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ passenger_id: '1', first_name: 'Mallory' }),
  });
  t.is(rest.status, 404);
  t.is((await jsonOf(rest)).code, 'offer_not_found');
  const partnerRead = await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}`, { headers: { 'x-api-key': partner.apiKey } });
  t.is(partnerRead.status, 200, 'the partner reads the offers it made');
  t.false(JSON.stringify(await jsonOf(partnerRead)).includes('FB-77123'), 'but not the passenger details kept for the order');
  t.is((await tool(ada.token, 'get_offer_details', offer)).ok?.id, offerId, 'Ada’s agent still reaches it');
});

test('a self-registered agent reaches an offer that belongs to no traveler by its id, and claims it', async (t) => {
  const offerId = await partnerOffer();
  const agent = await agentOf('self-registered');
  const details = await tool(agent.token, 'get_offer_details', { provider_id: 'provider_a', offer_id: offerId });
  t.is(details.ok?.id, offerId);
  t.deepEqual(await ownerOf(offerId), { user_id: agent.userId, partner_id: partner.partnerId });
  const partnersAgent = await agentOf('partner');
  t.is((await tool(partnersAgent.token, 'get_offer_details', { provider_id: 'provider_a', offer_id: offerId })).error?.code, 'offer_not_found');
});

test('two agents racing for one unclaimed offer: one wins, the other gets offer_not_found', async (t) => {
  const agents = await Promise.all([agentOf('partner'), agentOf('self-registered'), agentOf('partner'), agentOf('self-registered')]);
  for (let round = 0; round < 3; round++) {
    const offerId = await partnerOffer();
    const answers = await Promise.all(agents.map((agent) => tool(agent.token, 'update_passenger', { provider_id: 'provider_a', offer_id: offerId, passenger_id: '1', first_name: 'Racer' })));
    const winners = answers.flatMap((answer, index) => (answer.ok ? [agents[index] as (typeof agents)[number]] : []));
    t.is(winners.length, 1, `round ${round}: ${JSON.stringify(answers)}`);
    t.true(answers.every((answer) => answer.ok || answer.error?.code === 'offer_not_found'));
    t.is((await ownerOf(offerId)).user_id, winners[0]?.userId ?? null);
  }
});

test('four agents racing to read one unclaimed offer (get_offer_details, one statement that reads and claims): one gets it, the others offer_not_found', async (t) => {
  const agents = await Promise.all([agentOf('partner'), agentOf('self-registered'), agentOf('partner'), agentOf('self-registered')]);
  for (let round = 0; round < 3; round++) {
    const offerId = await partnerOffer();
    const answers = await Promise.all(agents.map((agent) => tool(agent.token, 'get_offer_details', { provider_id: 'provider_a', offer_id: offerId })));
    const winners = answers.flatMap((answer, index) => (answer.ok ? [agents[index] as (typeof agents)[number]] : []));
    t.is(winners.length, 1, `round ${round}: ${JSON.stringify(answers.map((answer) => answer.error ?? answer.ok?.id))}`);
    t.true(answers.every((answer) => answer.ok?.id === offerId || answer.error?.code === 'offer_not_found'));
    t.is((await ownerOf(offerId)).user_id, winners[0]?.userId ?? null);
    t.is((await tool(winners[0]?.token as string, 'get_offer_details', { provider_id: 'provider_a', offer_id: offerId })).ok?.id, offerId, 'the winner reads it again');
  }
});

test('an expired offer is offer_expired to a traveler’s agent, claimed or not', async (t) => {
  const agent = await agentOf('partner');
  const [unclaimed, claimed] = [await partnerOffer(), await partnerOffer()];
  t.is((await tool(agent.token, 'get_offer_details', { provider_id: 'provider_a', offer_id: claimed })).ok?.id, claimed);
  await running.service.db.knex('offers').whereIn('id', [unclaimed, claimed]).update({ expires_at: new Date(Date.now() - 60_000) });
  for (const offerId of [unclaimed, claimed]) t.is((await tool(agent.token, 'get_offer_details', { provider_id: 'provider_a', offer_id: offerId })).error?.code, 'offer_expired');
  t.is((await tool(agent.token, 'get_offer_details', { provider_id: 'provider_a', offer_id: randomUUID() })).error?.code, 'offer_not_found');
});

test('two partners: another partner’s key reaches nothing of this partner’s offers, with or without a traveler', async (t) => {
  const offerId = await partnerOffer();
  const other = await createPartnerClient(running, 'Other Reach Air');
  const read = await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}`, { headers: { 'x-api-key': other.apiKey } });
  t.is(read.status, 404);
  const otherTraveler = await authorize(running, await clientFor(running, other.clientId, oauth.ClientSecretBasic(other.clientSecret)), {
    redirectUri: PARTNER_REDIRECT,
    scope: 'bookings.write',
    traveler: { email: uniqueEmail() },
  });
  const priced = await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}/pricing`, {
    method: 'POST',
    headers: { 'x-api-key': other.apiKey, authorization: `Bearer ${otherTraveler.tokens.access_token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  t.is(priced.status, 404);
  t.is((await ownerOf(offerId)).user_id, null, 'nothing was claimed');
});
