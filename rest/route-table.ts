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
 */
export type RouteAuth = 'none' | 'api_key' | 'api_key_and_bearer';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  partner: PartnerIdentity | undefined;
  /** The traveler's side, on `api_key_and_bearer` routes. */
  actor: Actor | undefined;
  requestId: string;
  /** The uploaded file's bytes, on routes that declare `upload`. */
  upload: Buffer | undefined;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
}

export interface Route<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
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
  /** Leave out of the OpenAPI document (docs and the document itself). */
  hidden?: boolean;
  /** Serves an HTML page for a browser: gets the browser-page security headers. */
  page?: boolean;
  handler(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<RouteResult> | RouteResult;
}

/** Keeps the handler's input typed from the schemas while routes are collected into one list. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(route: Route<P, Q, B>): Route {
  return route as unknown as Route;
}
