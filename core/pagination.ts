/**
 * Keyset pagination over (created_at, id), newest first: the cursor is the last row's position, opaque
 * to the caller (base64url of JSON), and read back only as this module writes it.
 */
import { ValidationError } from './errors.js';

export interface PagePosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A creation time as encodeCursor writes it (toISOString of a four-digit year). */
const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(row: { created_at: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.created_at.toISOString(), row.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): PagePosition | undefined {
  if (!cursor) return undefined;
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    // Only what encodeCursor writes: a date such as -271821-04-20 parses in JavaScript, but PostgreSQL
    // cannot hold it and the query would fail with a 500.
    if (typeof createdAt !== 'string' || !CURSOR_INSTANT.test(createdAt) || typeof id !== 'string' || !UUID.test(id)) throw new Error('bad cursor');
    const date = new Date(createdAt);
    if (Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw new ValidationError([{ field: 'cursor', rule: 'cursor', message: 'not a cursor this API gave: start again without it' }]);
  }
}
