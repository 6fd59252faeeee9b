/**
 * The `requestState` of a purchase waiting for the traveler (MCP 2026-07-28, multi round-trip requests):
 * what the retried tools/call needs to go on, signed with the SDK's HMAC codec. The client holds it and
 * echoes it back; it is attacker-controlled on re-entry, so it is bound to the principal (the traveler and
 * the agent's client) and to the original call (the tool and a digest of its arguments), and it lapses
 * with the confirmation (15 minutes). It is signed, not encrypted: it carries ids only.
 *
 * The key is derived from the service's secret material, so every instance verifies what another minted.
 */
import { createHash, createHmac } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import type { Actor } from '../core/actor.js';

/** As long as a confirmation lives (decisions §10): past it, the state is as stale as the confirmation. */
export const REQUEST_STATE_TTL_SECONDS = 15 * 60;

export interface ConfirmationState {
  /** The confirmation the retried call books with. */
  confirmation_id: string;
  /** The call it belongs to: the tool, and a digest of its arguments (confirmation_id aside). */
  tool: string;
  arguments_digest: string;
}

/** The codec of confirmation states, keyed by `secret` (at least 32 bytes of the service's key material). */
export function confirmationStateCodec(secret: string): RequestStateCodec<ConfirmationState> {
  // A key of its own, derived for this one use: the secret itself signs other things.
  const key = createHmac('sha256', secret).update('mcp/request-state/v1').digest();
  return createRequestStateCodec<ConfirmationState>({ key, ttlSeconds: REQUEST_STATE_TTL_SECONDS, bind: principalOf });
}

/** Whose state it is: echoed by another traveler or through another client, it fails verification. */
function principalOf(ctx: ServerContext): string {
  const actor = ctx.http?.authInfo?.extra?.actor as Actor | undefined;
  return `${ctx.mcpReq.method}\0${actor?.userId ?? ''}\0${actor?.clientId ?? ''}`;
}

/** A digest of a call's arguments, whatever the order of their keys; `confirmation_id` is left out (the state sets it). */
export function argumentsDigest(args: Record<string, unknown>): string {
  const { confirmation_id: _set, ...rest } = args;
  return createHash('sha256').update(canonicalJson(rest)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
