/**
 * A route is declared once, with its zod schemas: the router serves it from this declaration and the
 * OpenAPI document is generated from the same one, so the two cannot drift apart.
 */
import type { z } from 'zod';
import type { Actor } from '../core/actor.js';
import type { PartnerIdentity } from '../core/partners/schemas.js';
import type { Scope } from '../core/scopes.js';
import type { UploadSpec } from './upload.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Which credentials a route needs (spec: "Which routes need what").
 * - `none`: public (health, discovery, docs).
 * - `api_key`: the partner's `x-api-key` only.
 * - `api_key_and_bearer`: the partner's key and the traveler's access token (with the route's `scope`).
 * - `api_key_and_bearer_or_session`: as above, or the traveler's own browser session plus a CSRF token
 *   (the browser components, decisions §8): a request with neither `x-api-key` nor `Authorization` is a
 *   browser's.
 * - `session`: the traveler's own browser session only (internal routes of the components).
 * - `client_basic`: the OAuth client's own credentials, `Authorization: Basic` (client_secret_basic) only:
 *   the identity API, called by an airline's backend (no API key, no bearer token).
 */
export type RouteAuth = 'none' | 'api_key' | 'api_key_and_bearer' | 'api_key_and_bearer_or_session' | 'session' | 'client_basic';

/** The OAuth client a `client_basic` route was called by. */
export interface ClientIdentity {
  clientId: string;
}

export interface RouteInput<P, Q, B, H = unknown> {
  params: P;
  query: Q;
  body: B;
  /** The request headers the route declares (`headers`), parsed; `{}` when it declares none. */
  headers: H;
  /** The request's `Origin` header (a browser's page), if it has one. */
  origin: string | undefined;
  partner: PartnerIdentity | undefined;
  /** The traveler's side, on `api_key_and_bearer` routes (and session routes: the traveler themselves). */
  actor: Actor | undefined;
  /** On `client_basic` routes: the OAuth client whose credentials opened the route. */
  client: ClientIdentity | undefined;
  /** On a request authenticated by the browser session: the CSRF token its changes must carry. */
  csrfToken: string | undefined;
  requestId: string;
  /** The uploaded file's bytes, on routes that declare `upload`. */
  upload: Buffer | undefined;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The type Koa gives a JSON body. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of a body that is JSON text already (a stored offer, a profile): Koa would type a string text/plain. */
export const JSON_TEXT = { 'content-type': JSON_TYPE };

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** The media type of `schema`; default `application/json`. */
  contentType?: string;
  /** Response headers a client acts on, by name: what each says. */
  headers?: Record<string, string>;
  /**
   * Named examples, where one status has answers of several kinds (an OAuth error per `error` code, say);
   * otherwise the example comes from the schema's `.meta({ examples })`.
   */
  examples?: Record<string, NamedExample>;
}

export interface NamedExample {
  summary: string;
  value: unknown;
}

export interface RequestBodySpec {
  schema: z.ZodType;
  /** Named examples, when the body has several kinds (one per grant type, say); otherwise the schema's. */
  examples?: Record<string, NamedExample>;
}

/**
 * What a route answers for an error status, shown as its example: the standard envelope (`status_code`
 * is added), or for a 400 with `fields`, the validation envelope.
 */
export interface ErrorExample {
  code: string;
  message: string;
  /** A provider-forwarded error's detail. */
  details?: string;
  fields?: Record<string, { field: string; rule: string; message: string }>;
}

export interface Route<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  H extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI style: `/v1/flights/providers/{provider}/capabilities`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: RouteAuth;
  /** The scope a bearer token must carry (`api_key_and_bearer` routes). */
  scope?: Scope;
  params?: P;
  query?: Q;
  /**
   * Request headers the route reads besides the credentials, as an object schema keyed by lower-case
   * header name: parsed like the query (400 naming the header), and documented as header parameters.
   */
  headers?: H;
  /** A JSON request body; routes without one never parse a body. */
  body?: B;
  /** An uploaded file instead of a JSON body (the handler gets its bytes as `upload`). */
  upload?: UploadSpec;
  /** The status of a successful answer unless the handler returns another; default 200. */
  status?: number;
  /** Successful responses by status. */
  responses: Record<number, ResponseSpec>;
  /** Error statuses this route can answer besides the ones every route of its kind can. */
  errors?: number[];
  /** This route's own answer for some error statuses; the others show the generic one of envelopes.ts. */
  errorExamples?: Partial<Record<number, ErrorExample>>;
  /** Leave out of the OpenAPI document (docs and the document itself). */
  hidden?: boolean;
  /** Serves an HTML page for a browser: gets the browser-page security headers. */
  page?: boolean;
  handler(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>, z.output<H>>): Promise<RouteResult> | RouteResult;
}

/**
 * An operation that another door serves (the authorization server, the tool endpoint) but that partners
 * must find in the same reference: its documentation only, handed to buildOpenApiDocument by the
 * composition root. Its answers, errors included, are listed in full: these endpoints have envelopes of
 * their own (RFC 6749, JSON-RPC).
 */
export interface DocumentedOperation {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  /** OpenAPI security requirements (each object's schemes are needed together); `[]` for none. */
  security: Record<string, string[]>[];
  /** Request headers a client must send besides its credentials. */
  headers?: Record<string, { description: string; required: boolean; example: string }>;
  /** The request body by media type (it may come in several). */
  body?: Record<string, RequestBodySpec>;
  responses: Record<number, ResponseSpec>;
}

/** Keeps the handler's input typed from the schemas while routes are collected into one list. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, H extends z.ZodType>(route: Route<P, Q, B, H>): Route {
  return route as unknown as Route;
}
