/**
 * Errors as tool results: the MCP door's one mapping of domain kinds. An agent reads the text as its
 * next prompt, so every error says what it can act on:
 *
 * - `code` (stable, to branch on) and `message` (what to do next);
 * - `retryable`: the same call may succeed later, unchanged; `needs_user`: only the traveler can unblock
 *   it (confirm a purchase, pick another card), so the agent should ask them rather than retry;
 * - `request_id` to quote, and `doc_url`, the code's anchor in our published error docs;
 * - the error's own fields (the new total, the confirmation's URL) and, for invalid input, the rule each
 *   field broke.
 *
 * Anything unexpected is logged in full and answered with a generic message and the request id: never a
 * stack, SQL or a vendor's words.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { adviceFor, errorDocUrl } from '../core/error-catalog.js';
import { DomainError, ForbiddenError, ValidationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';

export interface ToolErrorContext {
  logger: Logger;
  tool: string;
  requestId: string | undefined;
  /** The service's public origin (BASE_URL), where the error docs are served. */
  docsOrigin: string;
}

/** The traveler declined (or dismissed) the confirmation their client showed them: nothing was bought. */
export function confirmationDeclined(): DomainError {
  return new ForbiddenError(
    'The traveler declined to confirm this purchase: nothing was booked or charged. Ask them whether they still want it before calling again.',
    'confirmation_declined',
  );
}

export function toolError(error: unknown, context: ToolErrorContext): CallToolResult {
  const requestId = context.requestId ?? 'unknown';
  if (error instanceof DomainError) {
    const advice = adviceFor(error);
    const fields = error instanceof ValidationError ? { fields: error.fields } : {};
    return result({
      code: error.code,
      message: error.message,
      retryable: advice.retryable,
      needs_user: advice.needsUser,
      request_id: requestId,
      doc_url: errorDocUrl(context.docsOrigin, error.code),
      ...error.extras,
      ...fields,
    });
  }
  context.logger.error({ err: error, tool: context.tool, req_id: requestId }, 'tool failed');
  return result({
    code: 'internal_error',
    message: `Something went wrong on our side (request ${requestId}). Try again in a moment; if it keeps failing, tell the traveler and quote the request id.`,
    retryable: true,
    needs_user: false,
    request_id: requestId,
    doc_url: errorDocUrl(context.docsOrigin, 'internal_error'),
  });
}

function result(error: { code: string; message: string; [more: string]: unknown }): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}
