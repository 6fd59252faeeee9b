import test from 'ava';
import { z } from 'zod';
import { ValidationError } from '../core/errors.js';
import { parseOrThrow } from '../core/validation.js';

const Schema = z.strictObject({
  name: z.string().min(2).max(5),
  code: z.string().regex(/^[A-Z]{3}$/, 'must be three capital letters'),
  id: z.uuid(),
  count: z.number().int().min(1).max(9),
  kind: z.enum(['a', 'b']),
  items: z.array(z.object({ born_on: z.iso.date() })).min(1),
});

function fieldsOf(input: unknown) {
  const error = (() => {
    try {
      parseOrThrow(Schema, input);
    } catch (caught) {
      return caught;
    }
    throw new Error('expected a validation error');
  })();
  if (!(error instanceof ValidationError)) throw error;
  return error.fields;
}

test('each failed rule is named, keyed by the dotted path', (t) => {
  const fields = fieldsOf({ name: 'Toolong', code: 'gbp', id: 'nope', count: 10, kind: 'c', items: [{ born_on: '2020-13-45' }], x: 1 });
  t.deepEqual(
    Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.rule])),
    { name: 'max_length', code: 'pattern', id: 'uuid', count: 'max', kind: 'enum', 'items.0.born_on': 'date', x: 'unknown_field' },
  );
  t.is(fields.code?.message, 'code must be three capital letters');
  t.is(fields.kind?.message, 'kind must be one of "a", "b"');
  t.is(fields.name?.message, 'name must be at most 5 characters long');
});

test('missing fields fail "required"; wrong types fail "type"; empty arrays fail "min_items"', (t) => {
  const fields = fieldsOf({ name: 7, items: [] });
  t.is(fields.name?.rule, 'type');
  t.is(fields.name?.message, 'name must be a string');
  for (const name of ['code', 'id', 'count', 'kind']) t.is(fields[name]?.rule, 'required', name);
  t.is(fields.items?.rule, 'min_items');
});

test('a body that is not an object at all is reported on the body itself', (t) => {
  const fields = fieldsOf(undefined);
  t.deepEqual(fields['(body)'], { field: '(body)', rule: 'required', message: 'the body is required' });
});

test('a missing field keeps the hint its schema gives for it', (t) => {
  const error = t.throws(() => parseOrThrow(z.object({ to: z.string({ error: 'name the recipient' }) }), {}), { instanceOf: ValidationError });
  t.deepEqual(error.fields.to, { field: 'to', rule: 'required', message: 'to is required: name the recipient' });
});
