/**
 * Purchase confirmation at the tool door (decisions §10), with a test tool that asks for a confirmation
 * the way create_booking does (ConfirmationRequiredError), over real HTTP:
 *
 * - a 2026-07-28 client that opens URLs for its user (the SDK v2 Client, URL elicitation declared) gets an
 *   input-required result with our page's URL and a signed requestState; it retries, and the tool runs
 *   again with the confirmation's id from the state;
 * - a client that cannot (2025-11-25 with the v1 SDK's Client, or 2026-07-28 without URL elicitation)
 *   gets the error with needs_user, the confirmation's id, URL and expiry, and calls again with the id;
 * - declining, tampering with the state, or replaying it on another call or as another traveler fail.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { Client, StreamableHTTPClientTransport, type ElicitRequest } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { ConfirmationRequiredError, NotFoundError } from '../core/errors.js';
import { defineTool, type Tool } from '../mcp/tool.js';
import type { Json } from './helpers/http.js';
import { startToolDoor, type ToolDoor } from './helpers/tool-door.js';

const MODERN = '2026-07-28';

/** The test's stand-in for the confirmations store and the hosted page: what the traveler decided. */
const decisions = new Map<string, 'pending' | 'confirmed'>();
/** How often the tool ran for each item (the tests run side by side, each with items of its own). */
const runs = new Map<string, number>();

const buyItem = defineTool({
  name: 'buy_item',
  title: 'Buy an item',
  description: 'Buys an item once the traveler confirmed it. Needs the bookings.write scope.',
  input: z.strictObject({ item: z.string(), quantity: z.number().int().optional(), confirmation_id: z.string().optional() }),
  output: z.object({ bought: z.string(), confirmation_id: z.string() }),
  scopes: ['bookings.write'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ item, confirmation_id: confirmationId }) {
    runs.set(item, (runs.get(item) ?? 0) + 1);
    const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
    if (!confirmationId) {
      const id = randomUUID();
      decisions.set(id, 'pending');
      throw new ConfirmationRequiredError(id, `${door.origin}/confirm/${id}`, expiresAt);
    }
    const decision = decisions.get(confirmationId);
    if (!decision) throw new NotFoundError('There is no such confirmation: call again without confirmation_id.', 'confirmation_not_found');
    if (decision === 'pending') {
      throw new ConfirmationRequiredError(
        confirmationId,
        `${door.origin}/confirm/${confirmationId}`,
        expiresAt,
        `The traveler has not confirmed yet: show them ${door.origin}/confirm/${confirmationId}, then call again.`,
        'confirmation_pending',
      );
    }
    return { bought: item, confirmation_id: confirmationId };
  },
});

let door: ToolDoor;
test.before(async () => {
  door = await startToolDoor([buyItem as unknown as Tool]);
});
test.after.always(async () => {
  await door?.close();
});

/** The confirmation id our page's URL names. */
const idIn = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** A 2026-07-28 client (the SDK v2's), declaring URL elicitation or not, answering each elicitation with `answer`. */
async function modernClient(token: string, answer?: (request: ElicitRequest) => { action: 'accept' | 'decline' | 'cancel' }): Promise<Client> {
  const client = new Client(
    { name: 'modern-agent', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } }, capabilities: answer ? { elicitation: { url: {} } } : {} },
  );
  if (answer) client.setRequestHandler('elicitation/create', (request) => answer(request));
  await client.connect(new StreamableHTTPClientTransport(new URL(door.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** A tool error's body, or the structured answer. */
function outcome(result: { isError?: boolean; content?: unknown; structuredContent?: unknown }): { ok: Json; error: Json } {
  if (result.isError) return { ok: undefined, error: JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}').error };
  return { ok: result.structuredContent, error: undefined };
}

test('2026-07-28 with URL elicitation: the client is asked to open our page, and the retried call buys with the confirmation', async (t) => {
  const asked: ElicitRequest['params'][] = [];
  const client = await modernClient(await door.token(), (request) => {
    asked.push(request.params);
    // The traveler opens the page and confirms there.
    if (request.params.mode === 'url') decisions.set(idIn(request.params.url), 'confirmed');
    return { action: 'accept' };
  });
  t.is(client.getProtocolEra(), 'modern');
  const result = outcome(await client.callTool({ name: 'buy_item', arguments: { item: 'seat 12A' } }));
  t.is(asked.length, 1);
  const [elicitation] = asked as [Extract<ElicitRequest['params'], { mode: 'url' }>];
  t.is(elicitation.mode, 'url');
  t.regex(elicitation.url, new RegExp(`^${door.origin}/confirm/`));
  t.regex(elicitation.message, /must confirm this purchase/);
  t.deepEqual(result.ok, { bought: 'seat 12A', confirmation_id: idIn(elicitation.url) }, 'the retry carried the confirmation from the state');
  t.is(runs.get('seat 12A'), 2);
  await client.close();
});

test('2026-07-28: not confirmed yet asks again (confirmation_pending) until the traveler has; declining ends with confirmation_declined', async (t) => {
  let rounds = 0;
  const patient = await modernClient(await door.token(), (request) => {
    rounds += 1;
    // The first time, the traveler closes the page without deciding; the second, they confirm.
    if (rounds === 2 && request.params.mode === 'url') decisions.set(idIn(request.params.url), 'confirmed');
    return { action: 'accept' };
  });
  const bought = outcome(await patient.callTool({ name: 'buy_item', arguments: { item: 'bag' } }));
  t.is(rounds, 2);
  t.is(bought.ok.bought, 'bag');

  const declining = await modernClient(await door.token(), () => ({ action: 'decline' }));
  const declined = outcome(await declining.callTool({ name: 'buy_item', arguments: { item: 'lounge' } }));
  t.like(declined.error, { code: 'confirmation_declined', retryable: false, needs_user: true, doc_url: `${door.origin}/docs/errors#confirmation_declined` });
  t.regex(declined.error.request_id, /^[0-9a-f-]{36}$/);
  t.regex(declined.error.message, /declined/);
  await Promise.all([patient.close(), declining.close()]);
});

test('2026-07-28 without URL elicitation, and 2025-11-25: the error with needs_user and the URL; the call with confirmation_id buys', async (t) => {
  const modern = await modernClient(await door.token());
  const legacy = new LegacyClient({ name: 'legacy-agent', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
  await legacy.connect(new LegacyTransport(new URL(door.url), { requestInit: { headers: { authorization: `Bearer ${await door.token()}` } } }));
  t.is(legacy.getServerVersion()?.name, 'travel-partner');

  for (const client of [modern, legacy]) {
    const first = outcome((await client.callTool({ name: 'buy_item', arguments: { item: 'meal' } })) as Json);
    t.like(first.error, { code: 'confirmation_required', retryable: false, needs_user: true, doc_url: `${door.origin}/docs/errors#confirmation_required` });
    t.is(first.error.confirmation_url, `${door.origin}/confirm/${first.error.confirmation_id}`);
    t.true(Date.parse(first.error.expires_at) > Date.now());
    t.regex(first.error.request_id, /^[0-9a-f-]{36}$/);
    const again = { name: 'buy_item', arguments: { item: 'meal', confirmation_id: first.error.confirmation_id } };
    t.is(outcome((await client.callTool(again)) as Json).error.code, 'confirmation_pending', 'not confirmed yet');
    decisions.set(first.error.confirmation_id, 'confirmed');
    t.deepEqual(outcome((await client.callTool(again)) as Json).ok, { bought: 'meal', confirmation_id: first.error.confirmation_id });
  }
  await Promise.all([modern.close(), legacy.close()]);
});

/** One 2026-07-28 request, as a client without the SDK writes it. */
async function modernCall(token: string, params: Record<string, unknown>, capabilities: Json = { elicitation: { url: {} } }): Promise<Json> {
  const response = await fetch(door.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'buy_item',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'buy_item',
        ...params,
        _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } },
      },
    }),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id'), ...((await response.json()) as Json) };
}

test('the requestState is the server’s: tampered, replayed on other arguments or by another traveler, it is refused (-32602) and nothing runs', async (t) => {
  const userId = randomUUID();
  const token = await door.token({ userId });
  const first = await modernCall(token, { arguments: { item: 'upgrade', quantity: 1 } });
  t.is(first.result.resultType, 'input_required');
  const state = first.result.requestState as string;
  const [request] = Object.values(first.result.inputRequests) as Json[];
  t.like(request, { method: 'elicitation/create', params: { mode: 'url' } });
  decisions.set(idIn(request.params.url), 'confirmed');
  const accepted = { purchase_confirmation: { action: 'accept' } };

  const [body, mac] = state.split('.').slice(1) as [string, string];
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
  payload.p.confirmation_id = randomUUID();
  const forged = `v1.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
  const refusals = [
    await modernCall(token, { arguments: { item: 'upgrade', quantity: 1 }, requestState: forged, inputResponses: accepted }),
    await modernCall(token, { arguments: { item: 'suite', quantity: 1 }, requestState: state, inputResponses: accepted }),
    await modernCall(token, { arguments: { item: 'upgrade', quantity: 2 }, requestState: state, inputResponses: accepted }),
    await modernCall(await door.token(), { arguments: { item: 'upgrade', quantity: 1 }, requestState: state, inputResponses: accepted }),
    await modernCall(await door.token({ userId, clientId: 'another-agent' }), { arguments: { item: 'upgrade', quantity: 1 }, requestState: state, inputResponses: accepted }),
  ];
  for (const refusal of refusals) {
    t.like(refusal.error, { code: -32602, message: 'Invalid or expired requestState' });
    t.is(refusal.error.data.request_id, refusal.requestId, 'the SDK’s JSON-RPC error carries the request id too');
  }
  t.is(runs.get('upgrade'), 1, 'the tool never ran again');
  t.false(runs.has('suite'));

  // The same call, its arguments in another order, with the state: it buys.
  const retried = await modernCall(token, { arguments: { quantity: 1, item: 'upgrade' }, requestState: state, inputResponses: accepted });
  t.like(retried.result.structuredContent, { bought: 'upgrade' });
});

test('a client declaring only form elicitation is not sent a URL elicitation: it gets the error', async (t) => {
  const answer = await modernCall(await door.token(), { arguments: { item: 'wifi' } }, { elicitation: { form: {} } });
  t.true(answer.result.isError);
  t.like(JSON.parse(answer.result.content[0].text).error, { code: 'confirmation_required', needs_user: true });
});
