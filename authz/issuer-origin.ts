/**
 * oidc-provider builds the absolute URLs it hands out from the request (ctx.oidc.urlFor resolves against
 * ctx.href): discovery's endpoints, the resume URL an authorization request stores for after sign-in,
 * the action of its self-submitting forms. ctx.href comes from the Host header (X-Forwarded-Host and
 * X-Forwarded-Proto behind a trusted proxy, or an absolute request target, `GET http://host/path`), all of
 * which any client can write: `Host: evil.example` would make us advertise a token endpoint on
 * evil.example to whoever, or whichever cache, asked. The issuer (AUTH_URL) is our one public origin, so
 * every request the authorization server answers is seen as addressed to it. Its cookies are Secure when
 * the issuer is https, also behind a proxy that forwards plain http.
 */
import type { Context, Next } from 'koa';

const ABSOLUTE_TARGET = /^https?:\/\//i;

export function issuerOrigin(issuer: string) {
  const { host, protocol, origin } = new URL(issuer);
  const scheme = protocol.slice(0, -1);
  return function asAddressedToIssuer(ctx: Context, next: Next): Promise<void> {
    const target = ABSOLUTE_TARGET.test(ctx.originalUrl) ? pathAndQuery(ctx.originalUrl) : ctx.originalUrl;
    // Koa derives hostname, secure and its URL from these getters; own properties shadow them.
    Object.defineProperties(ctx.request, {
      host: { value: host, configurable: true },
      protocol: { value: scheme, configurable: true },
      href: { value: `${origin}${target}`, configurable: true },
    });
    return next();
  };
}

function pathAndQuery(absolute: string): string {
  const url = new URL(absolute);
  return `${url.pathname}${url.search}`;
}
