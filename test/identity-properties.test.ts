/**
 * Property tests of the identity API's bodies: arbitrary JSON, hostile strings (NULs, lone surrogates),
 * huge numbers, nesting and wrong types on resolve and on both loyalty-link operations, with real
 * guids and tokens among them. Never a 5xx; every answer is a success or one of the envelopes (validation,
 * identity 404, standard).
 */
import test from 'ava';
import fc from 'fast-check';
import { deeplyNested, hostileText } from './helpers/hostile.js';
import type { Json } from './helpers/http.js';
import { basicOf, connect, createAirline, identityCall, mintToken, type Airline, type ConnectedTraveler } from './helpers/identity.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let airline: Airline;
let traveler: ConnectedTraveler;

test.before(async () => {
  running = await startService();
  airline = await createAirline(running);
  traveler = await connect(running, airline, 'profile.read preferences.read');
});
test.after.always(async () => {
  await running?.close();
});

const scalar = fc.oneof(
  { weight: 3, arbitrary: hostileText(80) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.005, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 1e-7, true, false, null, '', ' ', 'a'.repeat(300)) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.double() },
);
const anyValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileText(12), scalar, { maxKeys: 3 }) },
  { weight: 1, arbitrary: deeplyNested() },
);

const LINK_FIELDS = ['guid', 'program_code', 'loyalty_account_ref', 'member_number', 'airline_name', 'airline_iata_code', 'verification_method', 'tier_status', 'points'];

/** A valid link body with some fields replaced, dropped or added. */
function linkBody(guid: () => string): fc.Arbitrary<Json> {
  const valid = () => ({
    guid: guid(),
    program_code: 'PROP',
    loyalty_account_ref: 'ref',
    member_number: '1',
    airline_name: 'Prop Air',
    verification_method: 'enrollment',
  });
  const changes = fc.dictionary(fc.constantFrom(...LINK_FIELDS, 'verified', '__proto__', 'constructor'), fc.option(anyValue, { nil: undefined }), { maxKeys: 4 });
  return fc.oneof(
    { weight: 3, arbitrary: changes.map((change) => ({ ...valid(), ...change })) },
    { weight: 1, arbitrary: anyValue },
  );
}

function resolveBody(guid: () => string, token: () => Promise<string>): fc.Arbitrary<Json | (() => Promise<Json>)> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.record({ guid: anyValue }, { requiredKeys: [] }) },
    { weight: 2, arbitrary: fc.record({ recognition_token: anyValue }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.record({ guid: anyValue, recognition_token: anyValue, extra: anyValue }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.constant({ guid: guid() }) },
    { weight: 1, arbitrary: fc.constant(async () => ({ recognition_token: await token() })) },
    { weight: 1, arbitrary: anyValue },
  );
}

/** Never a 5xx; an error is the validation, identity or standard envelope, each with its references. */
function inAnEnvelope(status: number, body: Json): boolean {
  if (status >= 500) return false;
  if (status < 300) return typeof body === 'object' && body !== null;
  const referenced = typeof body?.request_id === 'string' && typeof body?.doc_url === 'string';
  const validation = status === 400 && body?.code === 'validation_error' && typeof body.fields === 'object';
  const identity = status === 404 && ['unknown_guid', 'unknown_token'].includes(body?.error) && body.code === body.error;
  const standard = typeof body?.message === 'string' && body?.status_code === status && typeof body.code === 'string';
  return referenced && (validation || identity || standard);
}

async function send(method: 'POST' | 'DELETE', path: '/v1/identity/resolve' | '/v1/identity/loyalty-link', body: Json, seen: Set<number>): Promise<boolean> {
  const sent = typeof body === 'function' ? await (body as () => Promise<Json>)() : body;
  const answer = await identityCall(running, method, path, basicOf(airline), JSON.stringify(sent) ?? 'null');
  seen.add(answer.status);
  return inAnEnvelope(answer.status, answer.body);
}

test('property: resolve bodies never get a 5xx, and every refusal is an envelope', async (t) => {
  const seen = new Set<number>();
  const body = resolveBody(
    () => traveler.guid,
    () => mintToken(running, traveler.userId, airline.clientId),
  );
  await fc.assert(
    fc.asyncProperty(body, (sent) => send('POST', '/v1/identity/resolve', sent, seen)),
    { numRuns: 200, examples: [[{ guid: traveler.guid }], [{ recognition_token: 'x'.repeat(22) }], [{ guid: 'O\u0000Brien' }]] },
  );
  t.deepEqual([200, 400, 404].filter((status) => !seen.has(status)), [], 'the bodies reached the service: resolved, refused, unknown');
});

test('property: loyalty-link bodies (POST and DELETE) never get a 5xx, and every refusal is an envelope', async (t) => {
  const seen = new Set<number>();
  const guids = [traveler.guid, '00000000-0000-4000-8000-000000000000', 'nope'];
  let next = 0;
  const guid = () => guids[next++ % guids.length] as string;
  const request = fc.tuple(fc.constantFrom<'POST' | 'DELETE'>('POST', 'DELETE'), linkBody(guid));
  await fc.assert(
    fc.asyncProperty(request, ([method, sent]) => send(method, '/v1/identity/loyalty-link', sent, seen)),
    {
      numRuns: 200,
      examples: [
        [['POST', { guid: traveler.guid, program_code: 'P', loyalty_account_ref: 'r', member_number: '1', airline_name: 'A', verification_method: 'member_otp', points: 1e12 }]],
        [['DELETE', { guid: traveler.guid, program_code: 'P' }]],
      ],
    },
  );
  t.deepEqual([200, 201, 400, 404].filter((status) => !seen.has(status)), [], 'linked, unlinked, refused, unknown');
});

test('unreadable bodies: not JSON, another content type, too deep, too large: 4xx envelopes', async (t) => {
  const cases: [string, string, Record<string, string>][] = [
    ['not JSON', '{"guid":', {}],
    ['text/plain', 'guid=x', { 'content-type': 'text/plain' }],
    ['deep', `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`, {}],
    ['too large', JSON.stringify({ guid: 'a'.repeat(1024 * 1024 + 10) }), {}],
    ['an array', '[1,2]', {}],
    ['null', 'null', {}],
  ];
  for (const [name, body, headers] of cases) {
    const answer = await identityCall(running, 'POST', '/v1/identity/resolve', basicOf(airline), body, headers);
    t.true(answer.status >= 400 && answer.status < 500, `${name}: ${answer.status}`);
    t.true(inAnEnvelope(answer.status, answer.body), `${name}: ${answer.text.slice(0, 200)}`);
  }
});
