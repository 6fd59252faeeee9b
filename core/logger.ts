/**
 * JSON logs with pino. Secrets never reach a log: the request log records no headers or bodies at all,
 * and every log entry passes through a redactor that blanks fields whose names mark a secret (headers,
 * keys, tokens, card and document numbers) at any depth. Log errors under `err`: its serializer drops
 * the request bodies and database detail errors carry (error-log.ts), and is redacted too.
 *
 * Why not pino's `redact` option: with wildcard paths (needed to catch a field at any depth) it costs
 * about 250 µs per log call here, more than the rest of a request; this walk costs about 1 µs for a
 * request line.
 */
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { errorForLog } from './error-log.js';

export type { Logger };

const SECRET_FIELDS = new Set(
  [
    'authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'x-api-key',
    'api_key',
    'apikey',
    'password',
    'secret',
    'client_secret',
    'access_token',
    'refresh_token',
    'id_token',
    'code_verifier',
    'card_number',
    'cardnumber',
    'pan',
    'cvc',
    'cvv',
    'document_number',
    'documentnumber',
    'unique_identifier',
  ].map((name) => name.toLowerCase()),
);

const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

/** A copy of `value` with secret fields blanked; values without any are returned as they are. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const redacted = redactSecrets(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value);
  // Errors are left to the `err` serializer; Buffers, Dates and class instances are not walked.
  if (prototype !== Object.prototype && prototype !== null) return value;
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  // for...in rather than Object.entries: this runs for every log line and should not allocate.
  for (const key in record) {
    const item = record[key];
    const redacted = SECRET_FIELDS.has(key.toLowerCase()) && item !== undefined ? REDACTED : redactSecrets(item, depth + 1);
    if (redacted !== item) (copy ??= { ...record })[key] = redacted;
  }
  return copy ?? value;
}

export function createLogger(level: LevelWithSilent, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'travel-partner' },
    formatters: { log: (entry: Record<string, unknown>) => redactSecrets(entry) as Record<string, unknown> },
    // Errors lose the request and database content they carry (error-log.ts), then their secrets.
    serializers: { err: (error: unknown) => redactSecrets(errorForLog(error)) },
  };
  return pino(options, destination ?? stdout());
}

let standardOutput: ReturnType<typeof pino.destination> | undefined;

/**
 * One stdout destination for every logger of the process. Lines are batched and written 4 KiB at a time
 * (or every 250 ms), synchronously as pino does by default: measured here, a batched synchronous write
 * costs a third of an asynchronous one per line. What is still pending is written when the process
 * exits, also through process.exit().
 */
function stdout(): ReturnType<typeof pino.destination> {
  if (!standardOutput) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 250 });
    process.once('exit', () => destination.flushSync());
    standardOutput = destination;
  }
  return standardOutput;
}
