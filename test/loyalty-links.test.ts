/**
 * POST and DELETE /v1/identity/loyalty-link over real HTTP, row by row of the Loyalty link state table:
 * link, refresh, unlink (idempotent), disclosure stopped and restored with loyalty.read, and the link
 * surviving a disconnect and reconnect (new guid, verified on it). The account reference is sealed at
 * rest and never answered; a guid that is not the airline's own is the same 404 on both routes.
 *
 * The tests whose traveler grants `loyalty.read` (named "[loyalty.read]") need the authorization server to
 * know that scope (the identity-surface scope of decisions §5, another change of issue 15).
 */
import test from 'ava';
import { connect, createAirline, disconnect, keepScopes, link, resolve, unlink, type Airline, type ConnectedTraveler } from './helpers/identity.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

const WITH_LOYALTY = 'profile.read loyalty.read';

function membership(guid: string, overrides: Record<string, unknown> = {}) {
  return {
    guid,
    program_code: 'SKYMILES',
    loyalty_account_ref: 'acct-secret-7Hq2LmX9',
    member_number: '9012345678',
    airline_name: 'Demo Air',
    airline_iata_code: 'DA',
    verification_method: 'member_otp',
    tier_status: 'Silver',
    points: 1200.5,
    ...overrides,
  };
}

async function row(traveler: ConnectedTraveler, airline: Airline, programCode = 'SKYMILES') {
  return running.service.db.knex('loyalty_links').where({ user_id: traveler.userId, client_id: airline.clientId, program_code: programCode }).first();
}

test('[loyalty.read] none → linked (201), repeat with new tier and points → resolve shows the refresh, verified', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, WITH_LOYALTY);

  const first = await link(running, airline, membership(traveler.guid));
  t.is(first.status, 201, first.text);
  t.deepEqual(first.body, { linked: true, program_code: 'SKYMILES' });
  t.deepEqual((await resolve(running, airline, { guid: traveler.guid })).body.loyalty, {
    programs: [{ program_code: 'SKYMILES', airline_name: 'Demo Air', member_number: '9012345678', verified: true, airline_iata_code: 'DA', tier_status: 'Silver', points: 1200.5 }],
  });

  const repeat = await link(running, airline, membership(traveler.guid, { tier_status: 'Gold', points: 48250 }));
  t.is(repeat.status, 201);
  t.deepEqual(repeat.body, { linked: true, program_code: 'SKYMILES' });
  t.like((await resolve(running, airline, { guid: traveler.guid })).body.loyalty.programs[0], { tier_status: 'Gold', points: 48250, verified: true });

  // Every field is what the latest call sent: optional ones left out are cleared.
  await link(running, airline, membership(traveler.guid, { tier_status: undefined, points: undefined, airline_iata_code: undefined }));
  t.deepEqual((await resolve(running, airline, { guid: traveler.guid })).body.loyalty.programs, [
    { program_code: 'SKYMILES', airline_name: 'Demo Air', member_number: '9012345678', verified: true },
  ]);
});

test('[loyalty.read] linked → DELETE → none (200, gone from resolve); DELETE again is 200 too', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, WITH_LOYALTY);
  await link(running, airline, membership(traveler.guid));
  await link(running, airline, membership(traveler.guid, { program_code: 'LOUNGE_CLUB' }));

  const removed = await unlink(running, airline, { guid: traveler.guid, program_code: 'SKYMILES' });
  t.is(removed.status, 200);
  t.deepEqual(removed.body, { linked: false, program_code: 'SKYMILES' });
  t.deepEqual(
    (await resolve(running, airline, { guid: traveler.guid })).body.loyalty.programs.map((program: { program_code: string }) => program.program_code),
    ['LOUNGE_CLUB'],
  );
  const again = await unlink(running, airline, { guid: traveler.guid, program_code: 'SKYMILES' });
  t.is(again.status, 200);
  t.deepEqual(again.body, { linked: false, program_code: 'SKYMILES' });

  await unlink(running, airline, { guid: traveler.guid, program_code: 'LOUNGE_CLUB' });
  t.is((await resolve(running, airline, { guid: traveler.guid })).body.loyalty, undefined, 'no programs: no loyalty group');
});

test('[loyalty.read] loyalty.read turned off: no loyalty in resolve, the link kept; back on: shown again', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, WITH_LOYALTY);
  await link(running, airline, membership(traveler.guid));

  await keepScopes(running, traveler, airline.clientId, ['profile.read']);
  const off = await resolve(running, airline, { guid: traveler.guid });
  t.is(off.body.loyalty, undefined);
  t.deepEqual(off.body.granted_scopes, ['profile.read']);
  t.truthy(await row(traveler, airline), 'the association is kept');

  await keepScopes(running, traveler, airline.clientId, ['profile.read', 'loyalty.read']);
  t.like((await resolve(running, airline, { guid: traveler.guid })).body.loyalty.programs[0], { program_code: 'SKYMILES', verified: true });
});

test('[loyalty.read] disconnect then reconnect: a new guid; the old one is 404 on link and resolve; the new one shows the program verified', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, WITH_LOYALTY);
  await link(running, airline, membership(traveler.guid));

  await disconnect(running, traveler, airline.clientId);
  const again = await connect(running, airline, WITH_LOYALTY, { email: traveler.email, browser: traveler.browser });
  t.not(again.guid, traveler.guid);

  const oldResolve = await resolve(running, airline, { guid: traveler.guid });
  const oldLink = await link(running, airline, membership(traveler.guid, { tier_status: 'Gold' }));
  const oldUnlink = await unlink(running, airline, { guid: traveler.guid, program_code: 'SKYMILES' });
  for (const answer of [oldResolve, oldLink, oldUnlink]) {
    t.is(answer.status, 404);
    t.like(answer.body, { error: 'unknown_guid' });
  }
  const now = await resolve(running, airline, { guid: again.guid });
  t.like(now.body.loyalty.programs[0], { program_code: 'SKYMILES', tier_status: 'Silver', verified: true });
});

test('linking needs no loyalty.read; the account reference is sealed at rest and never answered', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read');
  const sent = membership(traveler.guid);
  const answer = await link(running, airline, sent);
  t.is(answer.status, 201);
  t.false(answer.text.includes(sent.loyalty_account_ref));

  const stored = await row(traveler, airline);
  t.truthy(stored);
  t.false(JSON.stringify(stored).includes(sent.loyalty_account_ref), 'not stored in plain text');
  t.not(stored.loyalty_account_ref_sealed, sent.loyalty_account_ref);
  t.like(stored, { member_number: '9012345678', verification_method: 'member_otp', tier_status: 'Silver', airline_iata_code: 'DA' });
  t.is(Number(stored.points), 1200.5);

  const claims = await resolve(running, airline, { guid: traveler.guid });
  t.is(claims.status, 200);
  t.is(claims.body.loyalty, undefined, 'without loyalty.read nothing is disclosed');
  t.false(claims.text.includes(sent.loyalty_account_ref));
  t.false(claims.text.includes('loyalty_account_ref'));

  // A repeat replaces the sealed reference too, and keeps linked_at.
  await link(running, airline, { ...sent, loyalty_account_ref: 'acct-rotated-2' });
  const after = await row(traveler, airline);
  t.not(after.loyalty_account_ref_sealed, stored.loyalty_account_ref_sealed);
  t.deepEqual(after.linked_at, stored.linked_at);
  t.true(after.updated_at >= stored.updated_at);
});

test('a guid that is not the airline’s own: 404 unknown_guid on POST and DELETE, the same body as an unknown one; nothing stored', async (t) => {
  const first = await createAirline(running, 'First Air');
  const second = await createAirline(running, 'Second Air');
  const traveler = await connect(running, first, 'profile.read');

  const answers = [
    await link(running, second, membership(traveler.guid)),
    await link(running, second, membership('00000000-0000-4000-8000-000000000000')),
    await link(running, second, membership('not-a-guid')),
    await unlink(running, second, { guid: traveler.guid, program_code: 'SKYMILES' }),
    await unlink(running, second, { guid: '00000000-0000-4000-8000-000000000000', program_code: 'SKYMILES' }),
  ];
  const reference = answers[1]!.text.replace(answers[1]!.body.request_id, '<id>');
  for (const answer of answers) {
    t.is(answer.status, 404);
    t.is(answer.text.replace(answer.body.request_id, '<id>'), reference);
  }
  t.is(answers[0]!.body.error, 'unknown_guid');
  const rows = await running.service.db.knex('loyalty_links').where({ user_id: traveler.userId }).count({ n: '*' });
  t.is(Number(rows[0]?.n), 0);
});

test('the link body: bounds and types are the validation envelope', async (t) => {
  const airline = await createAirline(running);
  const guid = '00000000-0000-4000-8000-000000000000';
  const cases: [string, Record<string, unknown>, string][] = [
    ['program code with a space', { program_code: 'SKY MILES' }, 'program_code'],
    ['IATA code of three letters', { airline_iata_code: 'DAX' }, 'airline_iata_code'],
    ['points below zero', { points: -1 }, 'points'],
    ['points with three decimals', { points: 1.125 }, 'points'],
    ['points as a string', { points: '12' }, 'points'],
    ['unknown verification method', { verification_method: 'trust_me' }, 'verification_method'],
    ['markup in the airline name', { airline_name: '<b>Air</b>' }, 'airline_name'],
    ['a line break in the member number', { member_number: '12\n34' }, 'member_number'],
    ['a member number of 65 characters', { member_number: '1'.repeat(65) }, 'member_number'],
    ['another field', { verified: true }, 'verified'],
  ];
  for (const [name, change, field] of cases) {
    const answer = await link(running, airline, membership(guid, change));
    t.is(answer.status, 400, name);
    t.is(answer.body.code, 'validation_error', name);
    t.truthy(answer.body.fields[field], `${name}: ${JSON.stringify(answer.body.fields)}`);
  }
  const missing = await link(running, airline, { guid });
  t.is(missing.status, 400);
  t.like(missing.body.fields, { program_code: { rule: 'required' }, loyalty_account_ref: { rule: 'required' }, verification_method: { rule: 'required' } });
  const unlinkExtra = await unlink(running, airline, { guid, program_code: 'SKYMILES', member_number: '1' });
  t.is(unlinkExtra.status, 400);
});
