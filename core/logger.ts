/**
 * JSON logs with pino. Secrets never reach a log: the request log records no headers or bodies at all,
 * and these redaction paths catch what another module might log by mistake.
 */
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api_key',
  'apiKey',
  'password',
  'client_secret',
  'access_token',
  'refresh_token',
  'code_verifier',
  'card_number',
  'cardNumber',
  'cvc',
  'cvv',
  'document_number',
  'documentNumber',
  'unique_identifier',
];

// pino's path syntax: `key` at the top, `*.key` one level down, `*.*.key` two levels down.
const accessor = (field: string) => (/^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`);
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [
  accessor(field).replace(/^\./, ''),
  `*${accessor(field)}`,
  `*.*${accessor(field)}`,
]);

export function createLogger(level: LevelWithSilent, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'travel-partner' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  // Asynchronous writes keep logging off the request's critical path; pino flushes them on exit.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
