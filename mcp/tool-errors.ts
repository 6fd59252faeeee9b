/**
 * Errors as tool results: the MCP door's one mapping of domain kinds. An agent reads the text as its
 * next prompt, so it carries the stable code, our message saying what to do next, and for invalid input
 * the rule each field broke. Anything unexpected is logged in full and answered with a generic message
 * and the request id: never a stack, SQL or a vendor's words.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, ValidationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';

export function toolError(error: unknown, context: { logger: Logger; tool: string; requestId: string | undefined }): CallToolResult {
  if (error instanceof DomainError) {
    const fields = error instanceof ValidationError ? { fields: error.fields } : {};
    return result({ code: error.code, message: error.message, ...error.extras, ...fields });
  }
  context.logger.error({ err: error, tool: context.tool, req_id: context.requestId }, 'tool failed');
  return result({
    code: 'internal_error',
    message: `Something went wrong on our side (request ${context.requestId ?? 'unknown'}). Try again in a moment; if it keeps failing, tell the traveler.`,
  });
}

function result(error: { code: string; message: string; [more: string]: unknown }): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}
