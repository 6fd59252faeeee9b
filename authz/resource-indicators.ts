/**
 * Resource indicators (RFC 8707) in one canonical form. A client may write a served resource with a
 * trailing slash (`http://host/`, what `new URL(origin).href` gives; `.../v1/mcp/`; `//`) or an upper-case
 * host: those name the same resource, and are rewritten to the form the service serves before the
 * library sees them. Left alone, the library keys the grant by the text the request sent, the consent page
 * grants the canonical form, and the consent prompt would come back forever (a redirect loop, a new
 * session each hop). A value that names no served resource is left for the library to refuse
 * (`invalid_target`).
 */
import type { Context, Next } from 'koa';
import { readReplayedForm, replaceForm } from './replayed-form.js';

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

/**
 * The token request's `resource` values in canonical form: the form body is read (replayed-form.ts) and,
 * where a value changes, handed to the library rewritten. Bodies of other types, and forms too large for
 * the library, pass untouched: the library answers them.
 */
export function canonicalTokenResources(served: readonly string[]) {
  return async function canonicalizeTokenResources(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'POST') return next();
    const form = await readReplayedForm(ctx);
    const values = form?.getAll('resource') ?? [];
    const rewritten = values.length > 0 ? canonicalResourceValues(values, served) : undefined;
    if (form && Array.isArray(rewritten)) {
      form.delete('resource');
      for (const value of rewritten) form.append('resource', value);
      replaceForm(ctx, form);
    }
    return next();
  };
}
