/**
 * A purchase the traveler must confirm, at the tool door (decisions §10): how the agent is prompted. A tool throws
 * ConfirmationRequiredError with our hosted page's URL; how the agent hears of it depends on its client:
 *
 * - A 2026-07-28 request whose client declared URL elicitation gets an input-required result: one
 *   URL-mode elicitation (the client offers the traveler our page) and a signed `requestState` holding
 *   the confirmation's id. The client retries the call with the traveler's answer and that state: a
 *   decline ends it (`confirmation_declined`); otherwise the tool runs again with `confirmation_id` set
 *   from the state, and if the traveler has not confirmed yet it asks again.
 * - Any other client (2025-11-25, or no URL elicitation) gets the error itself, with needs_user and the
 *   confirmation's id, URL and expiry: the agent shows the traveler the URL and calls again with the id.
 *
 * Either way the server decides: the tool books only with a confirmation the traveler gave on our page.
 */
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import type { ConfirmationRequiredError } from '../core/errors.js';
import { argumentsDigest, type ConfirmationState } from './request-state.js';

/** The key of our one embedded request, which the client's answer comes back under. */
const CONFIRMATION_INPUT = 'purchase_confirmation';

/** What a retried call brings: nothing (a first call), the confirmation to book with, or the traveler's no. */
export type ConfirmationReentry = { kind: 'none' } | { kind: 'confirm'; confirmationId: string } | { kind: 'declined' };

export class ConfirmationPrompts {
  constructor(private readonly codec: RequestStateCodec<ConfirmationState>) {}

  /** The codec's verification, for the SDK to run before the handler sees any state (tampered or expired: -32602). */
  get verify(): RequestStateCodec<ConfirmationState>['verify'] {
    return (state, ctx) => this.codec.verify(state, ctx);
  }

  /** Whether this request can be answered with a URL for the traveler rather than an error. */
  canElicitUrl(era: 'legacy' | 'modern', ctx: ServerContext): boolean {
    if (era !== 'modern') return false;
    const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { url?: unknown } } | undefined;
    return capabilities?.elicitation?.url !== undefined;
  }

  /** Reads a retried call: its verified state (bound to this tool and these arguments) and the traveler's answer. */
  reentry(tool: string, args: Record<string, unknown>, ctx: ServerContext): ConfirmationReentry {
    const state = ctx.mcpReq.requestState<ConfirmationState>();
    if (state === undefined) return { kind: 'none' };
    if (state.tool !== tool || state.arguments_digest !== argumentsDigest(args)) {
      // Verified, but minted for another call: the spec's "reject state presented on a request that does not match".
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRMATION_INPUT);
    if (answer.kind === 'elicit' && answer.action !== 'accept') return { kind: 'declined' };
    // Accepted, or no answer at all: the server's own record decides whether the traveler confirmed.
    return { kind: 'confirm', confirmationId: state.confirmation_id };
  }

  /** The input-required answer: our page's URL for the traveler, and the state the retry brings back. */
  async ask(error: ConfirmationRequiredError, tool: string, args: Record<string, unknown>, ctx: ServerContext): Promise<InputRequiredResult> {
    return inputRequired({
      inputRequests: { [CONFIRMATION_INPUT]: inputRequired.elicitUrl({ message: error.message, url: error.url }) },
      requestState: await this.codec.mint({ confirmation_id: error.confirmationId, tool, arguments_digest: argumentsDigest(args) }, ctx),
    });
  }
}
