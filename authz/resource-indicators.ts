/**
 * Resource indicators (RFC 8707) in one canonical form. A client may write a served resource with a
 * trailing slash (`http://host/`, what `new URL(origin).href` gives; `.../v1/mcp/`; `//`) or an upper-case
 * host: those name the same resource, and are rewritten to the form the service serves before the
 * library sees them. Left alone, the library keys the grant by the text the request sent, the consent page
 * grants the canonical form, and the consent prompt would come back forever (a redirect loop, a new
 * session each hop). A value that names no served resource is left for the library to refuse
 * (`invalid_target`).
 */
import { Readable } from 'node:stream';
import type { Context, Next } from 'koa';

/** The served resource `indicator` names, or undefined. Query and fragment are never part of one. */
export function canonicalResource(indicator: string, served: readonly string[]): string | undefined {
  const url = URL.parse(indicator);
  if (!url || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return undefined;
  const form = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return served.find((resource) => resource === form);
}

/** `resource` parameter values rewritten to canonical form; undefined when nothing changes. */
export function canonicalResourceValues(values: string | string[], served: readonly string[]): string | string[] | undefined {
  const list = Array.isArray(values) ? values : [values];
  const rewritten = list.map((value) => canonicalResource(value, served) ?? value);
  if (rewritten.every((value, index) => value === list[index])) return undefined;
  return Array.isArray(values) ? rewritten : rewritten[0];
}

/** The authorization request's `resource` values in canonical form (the query the library reads). */
export function canonicalAuthorizationResources(ctx: Context, served: readonly string[]): void {
  const resource = ctx.query.resource;
  if (resource === undefined) return;
  const rewritten = canonicalResourceValues(resource, served);
  if (rewritten !== undefined) ctx.query = { ...ctx.query, resource: rewritten };
}

/** The library reads at most this much of a token request (its own limit). */
const FORM_LIMIT_BYTES = 56 * 1024;

/**
 * The token request's `resource` values in canonical form: the form body is read, rewritten where a value
 * changes, and handed to the library as a fresh stream (as jsonRefreshBody does). Bodies of other types, and
 * forms too large for the library, pass untouched: the library answers them.
 */
export function canonicalTokenResources(served: readonly string[]) {
  return async function canonicalizeTokenResources(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'POST' || !ctx.is('application/x-www-form-urlencoded')) return next();
    const length = Number(ctx.get('content-length') || '0');
    if (length > FORM_LIMIT_BYTES || !ctx.get('content-length')) return next();
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    const form = new URLSearchParams(body.toString('utf8'));
    const values = form.getAll('resource');
    const rewritten = values.length > 0 ? canonicalResourceValues(values, served) : undefined;
    if (Array.isArray(rewritten)) {
      form.delete('resource');
      for (const value of rewritten) form.append('resource', value);
      body = Buffer.from(form.toString());
      ctx.req.headers['content-length'] = String(body.length);
    }
    // The socket stays reachable: koa reads the address and the protocol from it.
    ctx.req = Object.assign(Readable.from([body]), { headers: ctx.req.headers, socket: ctx.req.socket }) as unknown as Context['req'];
    return next();
  };
}
