/**
 * The HTTP client of the service's adapters (the flight providers, the payment processor, the card vault,
 * the sandbox mail and SMS relay): undici's `request`, the library Node's own fetch is built on. Issue 25
 * measured got, the client they used before, as the largest single cost of a booking: a quarter of the
 * service's own CPU for the booking's three calls, about twice what undici spends on the same call. got
 * remains where its streams earn their cost (fetching a client's metadata document, capped in size) and
 * in the processor sandbox's and the demo sites' own calls.
 *
 * One deadline covers each whole exchange (connection, answer and body). Nothing is retried here: whether
 * a call may be repeated is the adapter's decision (a booking must not be made twice). An answer of any
 * status comes back with its body parsed as JSON; only the absence of an answer is thrown.
 */
import { request } from 'undici';

export interface HttpClientSettings {
  /** Where the system's API lives; paths are relative to it. */
  baseUrl: string;
  /** Sent with every call (credentials, API version, accept). */
  headers: Record<string, string>;
  /** How long one exchange may take. */
  timeoutMs: number;
}

export interface HttpCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to the base URL, without a leading slash. */
  path: string;
  json?: unknown;
  form?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** This call's own deadline, in place of the client's (what is left of a longer operation's). */
  timeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  /** The parsed JSON body; undefined when the body was not JSON. */
  body: unknown;
}

/** The deadline passed before the answer was whole. The call may still have been carried out. */
export class HttpTimeoutError extends Error {}

/** No answer: the connection was refused, reset or closed before a status came back. */
export class HttpConnectionError extends Error {}

/** An answer outside 2xx, from `json()`. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`answered ${status}`);
  }
}

export class HttpClient {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;

  constructor(settings: HttpClientSettings) {
    this.#base = settings.baseUrl.replace(/\/+$/, '');
    this.#headers = settings.headers;
    this.#timeoutMs = settings.timeoutMs;
  }

  /** One exchange: its status and parsed body, whatever the status. */
  async send(call: HttpCall): Promise<HttpAnswer> {
    const timeoutMs = call.timeoutMs ?? this.#timeoutMs;
    // Whole milliseconds, at least one: a deadline's remainder may be fractional, which the timer refuses.
    const signal = AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs)));
    const body = call.json !== undefined ? JSON.stringify(call.json) : call.form ? new URLSearchParams(call.form).toString() : undefined;
    const contentType = call.json !== undefined ? 'application/json' : call.form ? 'application/x-www-form-urlencoded' : undefined;
    const url = call.query ? `${this.#base}/${call.path}?${new URLSearchParams(call.query).toString()}` : `${this.#base}/${call.path}`;
    try {
      const response = await request(url, {
        method: call.method,
        headers: { ...this.#headers, ...(contentType ? { 'content-type': contentType } : {}), ...call.headers },
        ...(body === undefined ? {} : { body }),
        signal,
      });
      return { status: response.statusCode, body: parsed(await response.body.text()) };
    } catch (error) {
      if (signal.aborted) throw new HttpTimeoutError(`${call.method} ${url} took longer than ${timeoutMs} ms`);
      throw new HttpConnectionError(`${call.method} ${url} got no answer: ${(error as Error).message}`, { cause: error });
    }
  }

  /** One exchange whose answer must be a 2xx: its parsed body; any other status is an HttpStatusError. */
  async json(call: HttpCall): Promise<unknown> {
    const answer = await this.send(call);
    if (answer.status < 200 || answer.status >= 300) throw new HttpStatusError(answer.status, answer.body);
    return answer.body;
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
