/**
 * Fetching a client's metadata document from the URL the client named: a request to an address chosen
 * by anyone who can send a browser to our authorization endpoint, so it is fenced in:
 * - the host is resolved first and every address it has must be public (outbound/public-addresses.ts); the
 *   connection then goes to those very addresses (a pinned lookup), so a second DNS answer cannot swap
 *   in an internal one (DNS rebinding);
 * - no redirects are followed, no retries, a short deadline for the whole exchange (DNS included) and a
 *   small size limit, counted on the decompressed body;
 * - a connection of its own each time (no keep-alive pool shared with other requests).
 * Origins in `testOrigins` (tests only: http://127.0.0.1:<port>) skip the address check.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import got, { RequestError, TimeoutError } from 'got';
import { pinnedLookup } from '../outbound/pinned-lookup.js';
import { isPublicAddress } from '../outbound/public-addresses.js';

export const CLIENT_METADATA_LIMITS = {
  /** The whole exchange: resolving the host, connecting, and the last byte of the body. */
  timeoutMs: 2500,
  /** The body, after decompression. */
  maxBytes: 5 * 1024,
} as const;

/** What went wrong, as a phrase that follows "the document cannot be used:". */
export class DocumentProblem extends Error {}

export interface FetchedDocument {
  body: Buffer;
  /** The Cache-Control header, if any. */
  cacheControl: string | undefined;
}

const agents = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };

export async function fetchClientMetadataDocument(url: URL, testOrigins: readonly string[]): Promise<FetchedDocument> {
  const deadline = Date.now() + CLIENT_METADATA_LIMITS.timeoutMs;
  const addresses = await publicAddressesOf(url, testOrigins.includes(url.origin), deadline);
  return downloadFrom(url, addresses, deadline);
}

async function publicAddressesOf(url: URL, testOrigin: boolean, deadline: number): Promise<LookupAddress[]> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = await beforeDeadline(lookup(hostname, { all: true, verbatim: true }), deadline);
  } catch (error) {
    if (error instanceof DocumentProblem) throw error;
    addresses = [];
  }
  // One message for both: telling a stranger which internal names exist, or where they point, would
  // map our network for them.
  if (addresses.length === 0 || (!testOrigin && !addresses.every(({ address }) => isPublicAddress(address)))) {
    throw new DocumentProblem(
      `its host ${url.hostname} must resolve to public internet addresses only, and it does not resolve, or resolves to a private, loopback, link-local or other non-public address`,
    );
  }
  return addresses;
}

/** GET `url`, connecting only to `addresses` (already checked), by `deadline` (ms since the epoch). */
export function downloadFrom(url: URL, addresses: LookupAddress[], deadline: number): Promise<FetchedDocument> {
  return new Promise((resolve, reject) => {
    const stream = got.stream(url, {
      headers: { accept: 'application/json', 'user-agent': 'travel-partner-authorization-server' },
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: Math.max(1, deadline - Date.now()) },
      dnsLookup: pinnedLookup(addresses),
      agent: agents,
    });
    const chunks: Buffer[] = [];
    let received = 0;
    let cacheControl: string | undefined;
    // got wraps an error handed to destroy(): the refusal is kept here and answered on close instead.
    let refusal: DocumentProblem | undefined;
    const refuse = (problem: string) => {
      refusal ??= new DocumentProblem(problem);
      stream.destroy();
    };
    const tooLarge = `it is larger than ${CLIENT_METADATA_LIMITS.maxBytes.toLocaleString('en')} bytes: keep the document small`;
    stream.on('response', (response: http.IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        refuse(`its URL answered with a redirect (HTTP ${status}): serve the document at the client_id URL itself, redirects are not followed`);
      } else if (status !== 200) {
        refuse(`its URL answered HTTP ${status}, not 200 with the document`);
      } else if (Number(response.headers['content-length']) > CLIENT_METADATA_LIMITS.maxBytes) {
        refuse(tooLarge);
      }
      cacheControl = response.headers['cache-control'];
    });
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > CLIENT_METADATA_LIMITS.maxBytes) refuse(tooLarge);
      else chunks.push(chunk);
    });
    stream.on('error', (error: Error) => reject(refusal ?? problemOf(error)));
    stream.on('close', () => refusal && reject(refusal));
    stream.on('end', () => resolve({ body: Buffer.concat(chunks), cacheControl }));
  });
}

function problemOf(error: Error): DocumentProblem {
  if (error instanceof DocumentProblem) return error;
  if (error instanceof TimeoutError) return slow();
  const code = error instanceof RequestError ? error.code : undefined;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code?.startsWith('CERT_') || code?.includes('CERT')) {
    return new DocumentProblem('its host did not present a valid TLS certificate for its name');
  }
  return new DocumentProblem('it could not be fetched: the connection failed or was cut off');
}

function slow(): DocumentProblem {
  return new DocumentProblem(`it did not arrive within ${CLIENT_METADATA_LIMITS.timeoutMs / 1000} seconds`);
}

function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(slow()), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
