/**
 * A partner's webhook receiver on a loopback port, as a partner would write one: it verifies every
 * delivery with the `standardwebhooks` package (an independent verifier), and once more by hand with
 * node:crypto from the specification's words, and keeps what arrived. Each path answers as it is told:
 * 200 by default, or a list of statuses to answer in turn (the last one repeated).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Json } from './http.js';

export interface Received {
  path: string;
  id: string;
  timestamp: number;
  /** When it arrived (ms since the epoch). */
  at: number;
  body: { type: string; timestamp: string; data: Json };
  raw: string;
  headers: http.IncomingHttpHeaders;
  /** The status answered. */
  answered: number;
  /** Whether both verifiers took the signature with the endpoint's secret. */
  verified: boolean;
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly #server: http.Server;
  readonly #secrets = new Map<string, string>();
  readonly #answers = new Map<string, number[]>();
  readonly #waiters: { check: () => boolean; resolve: () => void }[] = [];

  private constructor(server: http.Server) {
    this.#server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => receiver.#handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** The secret the endpoint at `path` was given, to verify its deliveries with. */
  secretFor(path: string, secret: string): void {
    this.#secrets.set(path, secret);
  }

  /** What `path` answers, in turn; the last one for every request after. */
  answer(path: string, statuses: number[]): void {
    this.#answers.set(path, [...statuses]);
  }

  at(path: string): Received[] {
    return this.received.filter((each) => each.path === path);
  }

  /** Waits until `check` holds (it is asked at each arrival), or fails after `ms`. */
  async until(check: () => boolean, ms = 20_000, what = 'the deliveries'): Promise<void> {
    if (check()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${ms} ms`)), ms);
      this.#waiters.push({ check, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      const queue = this.#answers.get(path);
      const answered = queue && queue.length > 1 ? (queue.shift() as number) : (queue?.[0] ?? 200);
      const secret = this.#secrets.get(path);
      const headers = request.headers;
      this.received.push({
        path,
        id: String(headers['webhook-id']),
        timestamp: Number(headers['webhook-timestamp']),
        at: Date.now(),
        body: JSON.parse(raw),
        raw,
        headers,
        answered,
        verified: secret !== undefined && verifiedByLibrary(secret, raw, headers) && verifiedByHand(secret, raw, headers),
      });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'no');
      for (const waiter of [...this.#waiters]) {
        if (waiter.check()) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  }
}

function verifiedByLibrary(secret: string, raw: string, headers: http.IncomingHttpHeaders): boolean {
  try {
    new Webhook(secret).verify(raw, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** The Standard Webhooks signature recomputed from its specification: v1,base64(HMAC-SHA256(key, "id.timestamp.body")). */
function verifiedByHand(secret: string, raw: string, headers: http.IncomingHttpHeaders): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${raw}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((signature) => {
      const [version, value] = signature.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
