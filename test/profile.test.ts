/**
 * The traveler's profile over REST: reading by `me` or one's own id, changing every field by its rules,
 * `email` and `phone_number` stripped, another traveler's id refused, scopes, and random and hostile bodies
 * answered in our envelope, never a 5xx.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import test from 'ava';
import fc from 'fast-check';
import { answersInOurEnvelope, deeplyNested, hostileText } from './helpers/hostile.js';
import { jsonOf, type Json } from './helpers/http.js';
import { partnerWithTraveler, userIdOf } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let apiKey: string;
let token: string;
let userId: string;


test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  await running.service.partners.setPlan({ id: 'profile-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  ({ apiKey, token } = await partnerWithTraveler(running, 'Profile Air', 'profile.read profile.write', 'profile-tests'));
  userId = userIdOf(token);
});
test.after.always(async () => {
  await running?.close();
});

function call(path: string, init: { body?: unknown; bearer?: string; key?: string } = {}) {
  return fetch(`${running.url}/v1/users/${path}`, {
    method: init.body === undefined ? 'GET' : 'PUT',
    headers: { 'x-api-key': init.key ?? apiKey, authorization: `Bearer ${init.bearer ?? token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

test('the profile by me or by one’s own id; every field changes by its rules; email and phone_number are stripped', async (t) => {
  const before = await jsonOf(await call('me'));
  t.deepEqual(await jsonOf(await call(userId)), before);
  const changed = await call('me', {
    body: {
      first_name: 'Ada',
      middle_name: 'Augusta',
      last_name: "King-Noel",
      suffix: 'III',
      date_of_birth: '1985-12-10',
      gender: 'female',
      known_traveler_number: 'KTN12345',
      profile_photo_url: 'https://cdn.example.com/ada.jpg',
      email: 'someone.else@example.com',
      phone_number: '+15555550100',
    },
  });
  t.is(changed.status, 200);
  const body = await jsonOf(changed);
  t.like(body, { first_name: 'Ada', middle_name: 'Augusta', last_name: 'King-Noel', suffix: 'III', known_traveler_number: 'KTN12345', email: before.email, phone_number: before.phone_number });
  const row = await running.service.db.knex('users').where({ id: userId }).first();
  t.is(row.email, before.email, 'the e-mail changes only through the contact change');
  t.is(row.first_name, 'Ada');
  t.like(await jsonOf(await call(userId, { body: { middle_name: null } })), { middle_name: null, first_name: 'Ada' });
});

test('field rules name each field; unknown fields are refused', async (t) => {
  const cases: [Json, string][] = [
    [{ first_name: 'A' }, 'first_name'],
    [{ first_name: 'R2D2' }, 'first_name'],
    [{ suffix: 'Jr.' }, 'suffix'],
    [{ suffix: 'Abcdefghijk' }, 'suffix'],
    [{ known_traveler_number: 'ab1' }, 'known_traveler_number'],
    [{ gender: 'x' }, 'gender'],
    [{ date_of_birth: '2999-01-01' }, 'date_of_birth'],
    [{ profile_photo_url: 'javascript:alert(1)' }, 'profile_photo_url'],
    [{ nickname: 'Ada' }, 'nickname'],
  ];
  for (const [body, field] of cases) {
    const response = await call('me', { body });
    t.is(response.status, 400, JSON.stringify(body));
    t.truthy((await jsonOf(response)).fields[field], `${field} is named`);
  }
});

test('another traveler’s id is 403; changing needs profile.write', async (t) => {
  const other = await partnerWithTraveler(running, 'Profile Reader', 'profile.read');
  t.is((await call(userIdOf(other.token))).status, 403);
  const refused = await call('me', { body: { first_name: 'Ada' }, bearer: other.token, key: other.apiKey });
  t.is(refused.status, 403);
  t.is((await jsonOf(refused)).scope, 'profile.write');
});

test('property: random, boundary and hostile bodies are answered in our envelope, never a 5xx', async (t) => {
  const own = await partnerWithTraveler(running, 'Profile Fuzz', 'profile.read profile.write', 'profile-tests');
  const value = fc.oneof(hostileText(120), fc.constantFrom('', 'Ada', 'III', 'male', '1985-12-10', '2031-02-30', 'https://x.example/a.png'), fc.integer(), fc.boolean(), fc.constant(null), fc.array(hostileText(), { maxLength: 2 }), deeplyNested());
  const keys = fc.constantFrom('first_name', 'middle_name', 'last_name', 'suffix', 'date_of_birth', 'gender', 'known_traveler_number', 'profile_photo_url', 'email', 'phone_number', 'id', 'x');
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.dictionary(keys, value, { maxKeys: 6 }), value), async (body) => {
      return answersInOurEnvelope(await call('me', { body, bearer: own.token, key: own.apiKey }));
    }),
    { numRuns: 150 },
  );
  t.pass();
});

/** Enough of each format for its type to be told from its first bytes. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), Buffer.alloc(64, 2)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 3)]);

function photo(init: { body?: RequestInit['body']; type?: string; method?: string; bearer?: string; key?: string } = {}) {
  return fetch(`${running.url}/v1/users/me/profile-photo`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'PUT'),
    headers: { 'x-api-key': init.key ?? apiKey, authorization: `Bearer ${init.bearer ?? token}`, ...(init.type ? { 'content-type': init.type } : {}) },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

test.serial('profile photo: raw or multipart, its type told from the bytes, at most 5 MiB; read and removed', async (t) => {
  const raw = await photo({ body: PNG, type: 'image/png' });
  t.is(raw.status, 200);
  t.is((await jsonOf(raw)).profile_photo_url, `${running.url}/v1/users/${userId}/profile-photo`);
  const read = await photo();
  t.is(read.headers.get('content-type'), 'image/png');
  t.deepEqual(Buffer.from(await read.arrayBuffer()), PNG);

  const form = new FormData();
  form.append('photo', new Blob([JPEG], { type: 'application/octet-stream' }), 'me.jpg');
  t.is((await photo({ body: form })).status, 200, 'multipart, whatever the part claims');
  t.is((await photo()).headers.get('content-type'), 'image/jpeg', 'the type is the bytes’');

  const lying = await photo({ body: Buffer.from('not an image at all, just text'), type: 'image/png' });
  t.is(lying.status, 400);
  t.is((await jsonOf(lying)).fields.photo.rule, 'image_type');
  t.is((await photo({ body: GIF, type: 'image/jpeg' })).status, 400, 'a GIF is not one of the three');
  t.is((await photo({ body: PNG.subarray(0, 8), type: 'image/png' })).status, 400, 'a file cut short is no image');
  t.is((await photo({ body: PNG, type: 'text/plain' })).status, 415);
  t.is((await photo({ body: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), type: 'image/png' })).status, 413);
  const noField = new FormData();
  noField.append('picture', new Blob([JPEG]), 'me.jpg');
  const missing = await photo({ body: noField });
  t.is(missing.status, 400);
  t.truthy((await jsonOf(missing)).fields.photo);
  t.is((await photo()).headers.get('content-type'), 'image/jpeg', 'refused uploads leave the photo as it was');

  t.is((await photo({ method: 'DELETE' })).status, 204);
  t.is((await photo()).status, 404);
  t.is((await jsonOf(await call('me'))).profile_photo_url, null);
});

test('property: random bytes and content types to the photo upload never get a 5xx', async (t) => {
  const own = await partnerWithTraveler(running, 'Photo Fuzz', 'profile.read profile.write', 'profile-tests');
  const bytes = fc.oneof(fc.uint8Array({ maxLength: 512 }), fc.constantFrom(PNG, JPEG, GIF).chain((start) => fc.uint8Array({ maxLength: 64 }).map((tail) => Buffer.concat([start.subarray(0, 8), Buffer.from(tail)]))));
  const type = fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/octet-stream', 'text/plain', 'multipart/form-data; boundary=x');
  await fc.assert(
    fc.asyncProperty(bytes, type, async (body, contentType) => {
      const response = await photo({ body: Buffer.from(body), type: contentType, bearer: own.token, key: own.apiKey });
      await response.arrayBuffer();
      return response.status < 500;
    }),
    { numRuns: 100 },
  );
  t.pass();
});

test.serial('after review: a form’s file in another field, or two files, are 400s that leave nothing on the disk', async (t) => {
  const leftovers = async () => (await fs.readdir(os.tmpdir())).filter((name) => name.startsWith('upload-')).length;
  const before = await leftovers();
  const elsewhere = new FormData();
  elsewhere.append('picture', new Blob([JPEG]), 'me.jpg');
  t.is((await photo({ body: elsewhere })).status, 400);
  const two = new FormData();
  two.append('photo', new Blob([JPEG]), 'one.jpg');
  two.append('photo', new Blob([PNG]), 'two.png');
  const refused = await photo({ body: two });
  t.is(refused.status, 400);
  t.is((await jsonOf(refused)).fields.photo.rule, 'one_file');
  t.is(await leftovers(), before);
});
