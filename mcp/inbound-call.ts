/**
 * One request to the tool endpoint as the protocol legs (protocol-handler.ts) take it: the message the
 * endpoint already read and checked, the headers the SDK reads, the verified token, and a signal for a
 * request the endpoint gave up. The legs we serve ourselves (legacy-exchange.ts, modern-exchange.ts) read
 * the Node request's headers as they are; only the SDK's own handler, for what those legs leave to it,
 * gets a web Request, built then (it costs about as much as the rest of the exchange).
 */
import type { AuthInfo, JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Actor } from '../core/actor.js';
import type { Message } from './json-message.js';

export interface InboundCall {
  message: Message;
  /** A request header by its lower-case name (as Node joined repeated ones), or undefined. */
  header(name: string): string | undefined;
  /** Aborted when the endpoint gives the request up. */
  signal: AbortSignal;
  authInfo: AuthInfo & { extra: CallExtra };
  /** The request as a web Request (the headers the SDK reads, the signal), for the SDK's handler. */
  webRequest(): Request;
}

/** The token's `extra`, made for each request: what the handlers read of the caller, and what a tool call leaves for the answer. */
export interface CallExtra {
  [key: string]: unknown;
  actor: Actor;
  requestId: string;
  /** The JSON text of what the tool call answered (its text content, and its structured content as JSON). */
  outputText?: string;
}

/** An answer in JSON: the HTTP status and the JSON-RPC message (none for a notification's 202), and the message as JSON text when it was written here. */
export interface JsonAnswer {
  status: number;
  body?: unknown;
  text?: string;
}

/**
 * The answer carrying `message`. A tool call's result holds its output twice, as text and as structured
 * content: the JSON of the one is the text of the other, so it is written as it is rather than serialized
 * again (the output is most of the answer). The text the tool call made is recognized as the same string,
 * not by its content.
 */
export function answerWith(status: number, message: JSONRPCMessage, call: InboundCall): JsonAnswer {
  const outputText = call.authInfo.extra.outputText;
  const result = 'result' in message ? (message.result as { content?: unknown; structuredContent?: unknown }) : undefined;
  const content = result?.content;
  const embedsOutput =
    outputText !== undefined &&
    typeof result?.structuredContent === 'object' &&
    Array.isArray(content) &&
    content.length === 1 &&
    (content[0] as { text?: unknown }).text === outputText;
  if (!embedsOutput) return { status, body: message };
  return { status, body: message, text: stringifyWith(message, 'result', stringifyWith(result, 'structuredContent', outputText)) };
}

/** JSON.stringify of a plain object whose `key` is written as the JSON text `json`, keys in their order. */
function stringifyWith(object: object, key: string, json: string): string {
  let text = '';
  for (const [name, value] of Object.entries(object)) {
    const written = name === key ? json : (JSON.stringify(value) as string | undefined);
    // As JSON.stringify does: a property whose value has no JSON (undefined, a function) is left out.
    if (written !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(name)}:${written}`;
  }
  return text ? `${text}}` : '{}';
}
