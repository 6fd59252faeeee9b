/**
 * Webhook deliveries over HTTP (decisions §14), to a URL a partner chose, fenced in as the client
 * metadata fetch is:
 * - https only, on a host whose every address is public (the sandbox also takes http and loopback
 *   addresses, for a receiver on the developer's machine); checked at registration and again before
 *   every delivery, and the connection pinned to the addresses just checked (outbound/pinned-lookup.ts);
 * - no redirect followed (a 3xx is a failed attempt), no retry here (the schedule retries), 15 seconds
 *   for the whole exchange, DNS included, and at most 64 KB of the answer read (and thrown away);
 * - a connection of its own each time.
 */
import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { WebhookPostResult, WebhookTransport } from '../../core/ports.js';
import { pinnedLookup } from '../../outbound/pinned-lookup.js';
import { isLoopbackAddress, isPublicAddress } from '../../outbound/public-addresses.js';

export const WEBHOOK_TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export interface HttpWebhookTransportOptions {
  /** Sandbox mode: http and loopback addresses are taken too. */
  sandbox: boolean;
  /** How a host name is resolved (tests answer for names of their own); default the system's resolver. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  timeoutMs?: number;
}

type Checked = { url: URL; addresses: LookupAddress[] } | { refusal: string };

export class HttpWebhookTransport implements WebhookTransport {
  readonly #options: HttpWebhookTransportOptions;

  constructor(options: HttpWebhookTransportOptions) {
    this.#options = options;
  }

  async refusal(url: string): Promise<string | undefined> {
    const checked = await this.#check(url, Date.now() + (this.#options.timeoutMs ?? WEBHOOK_TIMEOUT_MS));
    return 'refusal' in checked ? checked.refusal : undefined;
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookPostResult> {
    const timeoutMs = this.#options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const checked = await this.#check(url, deadline);
    if ('refusal' in checked) return { status: null, error: `not sent: ${checked.refusal}` };
    return send(checked.url, checked.addresses, headers, body, deadline, timeoutMs);
  }

  async #check(raw: string, deadline: number): Promise<Checked> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { refusal: 'it is not an absolute URL (https://host/path)' };
    }
    const sandbox = this.#options.sandbox;
    if (url.protocol !== 'https:' && !(sandbox && url.protocol === 'http:')) {
      return { refusal: sandbox ? 'it must be an https URL (or http, in the sandbox, to a loopback address)' : 'it must be an https URL' };
    }
    if (url.username || url.password) return { refusal: 'it must not carry a user name or password: authenticate deliveries by their signature' };
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: LookupAddress[];
    try {
      addresses = net.isIP(hostname) ? [{ address: hostname, family: net.isIP(hostname) }] : await beforeDeadline(this.#resolve(hostname), deadline);
    } catch {
      addresses = [];
    }
    const allowed = (address: string) => isPublicAddress(address) || (sandbox && isLoopbackAddress(address));
    const usable = addresses.length > 0 && addresses.every(({ address }) => allowed(address));
    // Whether the host exists and where it points are not told apart: that would map a network for a stranger.
    if (!usable) {
      return {
        refusal: `its host ${url.hostname} must resolve to public internet addresses only${sandbox ? ' (or loopback ones, in the sandbox)' : ''}, and it does not resolve, or resolves to a private, link-local or other non-public address`,
      };
    }
    if (url.protocol === 'http:' && !addresses.every(({ address }) => isLoopbackAddress(address))) {
      return { refusal: 'http is taken only for a loopback address (a receiver on your own machine, in the sandbox): use https' };
    }
    return { url, addresses };
  }

  #resolve(hostname: string): Promise<LookupAddress[]> {
    return this.#options.resolve ? this.#options.resolve(hostname) : lookup(hostname, { all: true, verbatim: true });
  }
}

function send(url: URL, addresses: LookupAddress[], headers: Record<string, string>, body: string, deadline: number, timeoutMs: number): Promise<WebhookPostResult> {
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body), 'user-agent': 'travel-partner-webhooks/1.0' },
      lookup: pinnedLookup(addresses),
      agent: false,
      signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const redirect = status >= 300 && status < 400;
      response.on('close', () => resolve({ status, error: redirect ? `the endpoint answered a redirect (HTTP ${status}), which is not followed: register the URL it points to` : null }));
      response.on('error', () => undefined);
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ status: null, error: problemOf(error, timeoutMs) }));
    request.end(body);
  });
}

function problemOf(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} seconds`;
  if (error.code === 'ECONNREFUSED') return 'the connection was refused';
  if (error.code?.includes('CERT') || error.code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'its host did not present a valid TLS certificate for its name';
  return 'the connection failed or was cut off';
}

function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('too slow')), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
