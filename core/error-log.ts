/**
 * An error as the log shows it (the logger's `err` serializer). Errors carry more than their message, and
 * what other libraries attach is often the request's own content: a body parser's error the body it could
 * not read, PostgreSQL's the row or JSON around the failure (`detail`, `where`, `hint`, `internalQuery`),
 * a query builder's the SQL and its values. Travelers' names, e-mail addresses and loyalty numbers would
 * reach the log that way, so those fields are dropped from every error and from the errors it holds
 * (causes, aggregated errors, error-valued fields), and messages that quote the input they refused
 * (PostgreSQL's, JSON.parse's) have the quoted part blanked. An HTTP client's error (got's) carries the whole
 * request, credentials and body included, in `options`, and the exchange in `request`, `response` and
 * `timings`: dropped too, but for the method and the URL without its query (as `request`).
 *
 * What stays is what finds the fault: the class, the message of our own code, the stack, codes (the
 * SQLSTATE among them), PostgreSQL's schema, table, column and constraint names, and causes, likewise.
 */

const CONTENT_FIELDS = new Set(
  ['body', 'rawBody', 'where', 'detail', 'hint', 'internalQuery', 'query', 'sql', 'bindings', 'parameters', 'params', 'values', 'input', 'options', 'request', 'response', 'timings'].map(
    (name) => name.toLowerCase(),
  ),
);

const MAX_DEPTH = 4;

/** Of an HTTP client's request, what finds the fault: the method and where it went, without the query. */
function requestTarget(error: Error): string | undefined {
  const options = (error as { options?: { method?: unknown; url?: unknown } }).options;
  if (!(options?.url instanceof URL)) return undefined;
  return `${String(options.method ?? 'GET')} ${options.url.origin}${options.url.pathname}`;
}

export function errorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  // Not the error itself: pino would write all its fields.
  if (depth > MAX_DEPTH) return { type: error.constructor?.name, message: '[nested too deep to log]' };
  const quotesInput = isDatabaseError(error) || error instanceof SyntaxError;
  const message = quotesInput ? blankQuoted(error.message) : error.message;
  const type = error.constructor?.name ?? error.name;
  const entry: Record<string, unknown> = { type, message, stack: quotesInput ? `${type}: ${message}${framesOf(error.stack)}` : error.stack };
  // for...in: own and inherited enumerable fields, as pino's own serializer reads them.
  for (const key in error) {
    if (CONTENT_FIELDS.has(key.toLowerCase()) || Object.hasOwn(entry, key)) continue;
    const value = (error as unknown as Record<string, unknown>)[key];
    entry[key] = value instanceof Error ? errorForLog(value, depth + 1) : value;
  }
  const target = requestTarget(error);
  if (target) entry.request = target;
  if (error.cause !== undefined) entry.cause = errorForLog(error.cause, depth + 1);
  if (error instanceof AggregateError) entry.errors = error.errors.map((item: unknown) => errorForLog(item, depth + 1));
  return entry;
}

/** PostgreSQL's errors (pg's DatabaseError) carry a SQLSTATE and a severity. */
function isDatabaseError(error: Error): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * `invalid input syntax for type uuid: "ada@example.com"`, `Unexpected token 'x', "{"name":"Ada"... is
 * not valid JSON`: everything from the first double quote to the last goes, identifiers with it (the
 * table, column and constraint are fields of their own).
 */
function blankQuoted(message: string): string {
  return message.replace(/".*"/s, '"[redacted]"');
}

/** The stack's frames without its first line, which repeats the message. */
function framesOf(stack: string | undefined): string {
  const at = stack?.indexOf('\n    at ') ?? -1;
  return at === -1 ? '' : (stack as string).slice(at);
}
