/**
 * The origins a publishable key may be used from (decisions §12). Each is compared with the browser's
 * `Origin` header as exact text, so it must be written exactly as a browser sends it: `scheme://host[:port]`,
 * lower case, without a default port, a path, a trailing slash or a wildcard. `https` only, except on a
 * loopback host (a developer's own machine) or in sandbox mode, where `http` is accepted too.
 */
import { ValidationError, type FieldError } from '../errors.js';

/** A key lists at most this many origins: one per site and environment, not a catalogue of the web. */
export const MAX_ALLOWED_ORIGINS = 20;
const MAX_ORIGIN_LENGTH = 300;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** What is wrong with `origin` as an allowed origin, in words saying what to write instead; undefined if nothing. */
export function originProblem(origin: string, options: { sandbox: boolean }): string | undefined {
  if (origin.length > MAX_ORIGIN_LENGTH) return `${origin.slice(0, 60)}… is longer than ${MAX_ORIGIN_LENGTH} characters`;
  if (origin.includes('*')) return `${origin} has a wildcard: list each origin the key is used from, exactly (https://shop.example)`;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `${origin} is not an origin: write scheme://host[:port], such as https://shop.example`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${origin} must use https:// (or http:// on a loopback host or in sandbox mode)`;
  if (url.username || url.password) return `${origin} must not carry a user name or password`;
  if (url.origin !== origin) {
    const extra = url.pathname !== '/' || /[?#]/.test(origin) || origin.endsWith('/');
    return extra
      ? `${origin} is not an origin: an origin has no path, query or trailing slash; write ${url.origin}`
      : `${origin} is not written as a browser sends it in Origin (lower case, no default port): write ${url.origin}`;
  }
  if (url.protocol === 'http:' && !options.sandbox && !isLoopback(url.hostname)) {
    return `${origin} must use https://: http:// is accepted only on a loopback host (localhost, 127.0.0.1) or in sandbox mode`;
  }
  return undefined;
}

/** The origins, checked and without repeats; throws ValidationError naming each one that is wrong. */
export function checkAllowedOrigins(origins: readonly string[], options: { sandbox: boolean }): string[] {
  if (origins.length === 0) {
    throw new ValidationError(
      [{ field: 'allowed_origins', rule: 'required', message: 'a publishable key needs at least one origin: --origin https://shop.example' }],
      'A publishable key needs at least one origin it is used from: add --origin https://shop.example (repeat --origin for each).',
    );
  }
  const unique = [...new Set(origins)];
  if (unique.length > MAX_ALLOWED_ORIGINS) {
    throw new ValidationError(
      [{ field: 'allowed_origins', rule: 'max_items', message: `at most ${MAX_ALLOWED_ORIGINS} origins (got ${unique.length})` }],
      `A publishable key lists at most ${MAX_ALLOWED_ORIGINS} origins (got ${unique.length}): create another key for the others.`,
    );
  }
  const problems: FieldError[] = unique.flatMap((origin, index) => {
    const problem = originProblem(origin, options);
    return problem ? [{ field: `allowed_origins.${index}`, rule: 'origin', message: problem }] : [];
  });
  if (problems.length > 0) throw new ValidationError(problems, `Not an allowed origin: ${problems.map((p) => p.message).join('; ')}.`);
  return unique;
}
