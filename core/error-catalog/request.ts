/** Codes about the request itself: its body, its fields, its path and method. Fix the request, then send it again. */
import type { ErrorGroup } from './entry.js';

export const REQUEST_ERRORS: readonly ErrorGroup[] = [
  {
    title: 'The request',
    summary: 'The request cannot be read or does not fit the operation: sending it again unchanged gives the same answer.',
    entries: {
      validation_error: {
        status: 400,
        title: 'A field does not fit',
        help: 'The body, query or path breaks a rule. `fields` holds one entry per field, keyed by its dotted path (`passengers.0.born_on`), each naming the `rule` that failed and what the field must be: fix those fields and send the request again. Unknown fields are refused too (rule `unknown_field`): remove them.',
        retryable: false,
        needsUser: false,
      },
      invalid_json: {
        status: 400,
        title: 'The body is not valid JSON',
        help: 'Send a JSON object (or array, where the operation takes one) with `Content-Type: application/json`, encoded as UTF-8.',
        retryable: false,
        needsUser: false,
      },
      invalid_body: {
        status: 400,
        title: 'The body cannot be read',
        help: 'The body arrived cut short, is not valid UTF-8, cannot be decompressed (check `Content-Encoding`), or is a multipart form that cannot be parsed: send it again, whole and in the declared encoding.',
        retryable: false,
        needsUser: false,
      },
      invalid_scope: {
        status: 400,
        title: 'The scopes asked for cannot be granted',
        help: 'An authorization request named a scope this server does not know, or the traveler declined every permission asked for. Ask only for the scopes listed in `scopes_supported` of the authorization server metadata, and for fewer of them if the traveler declined.',
        retryable: false,
        needsUser: false,
      },
      route_not_found: {
        status: 404,
        title: 'No such route',
        help: 'No operation has this path. The operations are listed in `/openapi.json` and on the reference page at `/docs`: check the path, its version prefix (`/v1`) and its spelling.',
        retryable: false,
        needsUser: false,
      },
      method_not_allowed: {
        status: 405,
        title: 'Not with this method',
        help: 'The path exists but not with this HTTP method: the `Allow` header lists the methods it takes. The tool endpoint `/v1/mcp` takes POST only.',
        retryable: false,
        needsUser: false,
      },
      payload_too_large: {
        status: 413,
        title: 'The body is too large',
        help: 'JSON bodies may be at most 1 MiB (the hosted pages’ forms 16 KiB), a profile photo 5 MiB: the message names this route’s limit. Send less.',
        retryable: false,
        needsUser: false,
      },
      unsupported_media_type: {
        status: 415,
        title: 'The body is not of a type this route takes',
        help: 'Send JSON with `Content-Type: application/json` (or an `application/*+json` type), in UTF-8, uncompressed or gzip-encoded. A profile photo is `image/jpeg`, `image/png` or `image/webp`, or a multipart form with the file in `photo`.',
        retryable: false,
        needsUser: false,
      },
      environment_mismatch: {
        status: 400,
        title: 'Test and live mixed up',
        help: 'A checkout session’s `is_prod` (the checkout button’s `isProd`) does not match this service: false on the sandbox, true in production. Send the value that matches, or call the service that matches the page: a test page never sells a real ticket.',
        retryable: false,
        needsUser: false,
      },
    },
  },
];
