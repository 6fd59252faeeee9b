/**
 * Reads the one JSON-RPC message a request to the tool endpoint carries, before the SDK sees it: within
 * the size limit, nested at most 64 levels, without text PostgreSQL cannot store (core's input checks,
 * naming each field), one message (neither revision the endpoint serves has batches), and a tools/call
 * that names its tool and passes its arguments as an object. Each refusal is a JSON-RPC error with the
 * HTTP status that fits it.
 */
import type { IncomingMessage } from 'node:http';
import type { FieldError } from '../core/errors.js';
import { inputProblems, MAX_INPUT_DEPTH } from '../core/input-checks.js';

const MAX_BODY_BYTES = 1024 * 1024;

export interface Message {
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown };
}

export interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

export type Read = { ok: true; value: Message } | { ok: false; status: number; error: RpcError };

const refuse = (status: number, code: number, message: string): Read => ({ ok: false, status, error: { code, message } });

export async function readMessage(req: IncomingMessage): Promise<Read> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(415, -32700, 'Send JSON-RPC messages as Content-Type: application/json.');
  const body = await readBody(req);
  if (body === undefined) return refuse(413, -32600, 'The message is larger than 1 MiB.');
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return refuse(400, -32700, 'The body is not valid JSON.');
  }
  const problems = inputProblems(value);
  if (problems.length > 0) return refuseInput(problems);
  if (Array.isArray(value)) return refuse(400, -32600, 'Send one JSON-RPC message per request: MCP (2025-11-25 and 2026-07-28 alike) has no batches.');
  if (typeof value !== 'object' || value === null) return refuse(400, -32600, 'The body must be one JSON-RPC message (an object).');
  const message = value as Message;
  if (message.method === 'tools/call') {
    const params = message.params;
    const args = params?.arguments;
    if (typeof params !== 'object' || params === null || typeof params.name !== 'string' || (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))) {
      return refuse(400, -32602, 'A tools/call names its tool in params.name and passes params.arguments as an object: see tools/list.');
    }
  }
  return { ok: true, value: message };
}

/**
 * The body, or undefined past the size limit (the rest is then not read: the request is destroyed). Read
 * from the stream's events rather than with `for await`, whose iterator costs more than the read itself
 * for a message of one chunk. A request that ends early (the client went away) rejects, as the iterator does.
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) return reject(new Error('The request ended before its body did.'));
    if (req.readableEnded) return resolve(Buffer.alloc(0));
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        settle();
        req.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      settle();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onClose = () => onError(new Error('The request ended before its body did.'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * Too deep is an invalid request; text PostgreSQL cannot store is invalid params, naming each field in
 * the words of the REST API's validation envelope (in the error's `data`).
 */
function refuseInput(problems: FieldError[]): Read {
  if (problems.some((problem) => problem.rule === 'max_depth')) {
    return refuse(400, -32600, `The message nests arrays and objects too deep: send at most ${MAX_INPUT_DEPTH} levels.`);
  }
  const fields = Object.fromEntries(problems.map((problem) => [problem.field, problem]));
  const message = `Some text cannot be used: ${problems.map((problem) => problem.message).join('; ')}.`;
  return { ok: false, status: 400, error: { code: -32602, message, data: { code: 'validation_error', fields } } };
}
