/**
 * How provider_e's sandbox speaks: its key check, its error body with its own numeric codes, its UTC
 * timestamps, and the ids and record locators it hands out.
 */
import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import { ERROR_CODES } from './wire.js';

export const SANDBOX_TOKEN_PREFIX = 'liteapi_test_';

export type Problem = { field: string; message: string };

export async function authenticate(ctx: Context, next: Next): Promise<void> {
  if (!ctx.get('x-api-key').startsWith(SANDBOX_TOKEN_PREFIX)) return error(ctx, 401, ERROR_CODES.unauthorized, 'Invalid or missing API key');
  return next();
}

export function error(ctx: Context, status: number, code: number, message: string, details?: Problem[]): void {
  ctx.status = status;
  ctx.body = { error: { code, message, ...(details ? { details } : {}) } };
}

/** A timestamp as provider_e writes it: UTC, whole seconds. */
export function utc(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function token(length: number): string {
  return crypto.randomBytes(length).toString('base64url').slice(0, length);
}

/** A six-character record locator without the letters airlines avoid (I, O) or digits 0 and 1. */
export function pnr(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(crypto.randomBytes(6), (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * A 13-digit ticket number: the validating airline's three-digit accounting code, then ten digits.
 * The codes are the airlines' real ones for the fixtures' carriers; any other carrier gets 999.
 */
export function ticketNumber(carrier: string): string {
  const prefix = { BA: '125', EK: '176', KU: '229' }[carrier] ?? '999';
  return prefix + Array.from(crypto.randomBytes(10), (byte) => String(byte % 10)).join('');
}
