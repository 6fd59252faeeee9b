/**
 * What every endpoint of provider_d's sandbox shares: its credential (an `apikey` header), its error
 * answer (`{status: "Error", error}`), and its booking token, which carries what was searched (routes,
 * dates, passengers, currency, when) so that search and check need no memory and any instance answers.
 */
import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import { optionsOf, RATES } from './catalogue.js';
import type { Token } from './itineraries.js';

export const SANDBOX_KEY_PREFIX = 'kiwi_test_';
/** A booking token is good for 30 minutes after its search; so is a hold before confirm_payment. */
export const TOKEN_LIFETIME_MS = 30 * 60 * 1000;

export async function authenticate(ctx: Context, next: Next): Promise<void> {
  if (!ctx.get('apikey').startsWith(SANDBOX_KEY_PREFIX)) return answerError(ctx, 403, 'Invalid apikey');
  return next();
}

/**
 * Whose bookings these are: a digest of the API key, so that one partner's key neither reads another's
 * bookings nor collides with their client references (and the key itself is not stored).
 */
export function ownerOf(ctx: Context): string {
  return crypto.createHash('sha256').update(ctx.get('apikey')).digest('hex').slice(0, 16);
}

export function answerError(ctx: Context, status: number, error: string): void {
  ctx.status = status;
  ctx.body = { status: 'Error', error };
}

export function readToken(value: string | undefined): Token | undefined {
  try {
    const token = JSON.parse(Buffer.from(value ?? '', 'base64url').toString('utf8')) as Token;
    const known = token.legs.every((leg) => {
      const [from, to] = leg.route.split('-') as [string, string];
      return optionsOf(from, to)[leg.option] !== undefined;
    });
    return known && token.currency in RATES ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The session check_flights opens for a token: derived from it, so any instance knows it. */
export function sessionOf(bookingToken: string): string {
  return crypto.createHash('sha256').update(bookingToken).digest('hex').slice(0, 32);
}

export function tokenExpired(token: Token, clock: { now(): Date }): boolean {
  return clock.now().getTime() - token.searchedAt > TOKEN_LIFETIME_MS;
}

/** Where the outbound flies: the magic destinations steer the failure paths. */
export function destinationOf(token: Token): string {
  return token.legs[0]?.route.split('-')[1] ?? '';
}
