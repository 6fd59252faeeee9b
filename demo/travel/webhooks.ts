/**
 * Demo Travel's webhook receiver, as an agency would write one (decisions §14): its backend registers
 * `{origin}/webhooks` for every event type with its secret key, keeps the signing secret (shown once) in
 * memory, verifies each delivery with the `standardwebhooks` package before reading it, handles each
 * `webhook-id` once, and answers 2xx at once. Its page lists what arrived.
 *
 * The secret lives in this process only: after a restart the endpoint is registered anew (the one it
 * registered before is deleted first), so a stale secret never lingers.
 */
import { Webhook } from 'standardwebhooks';
import type { Logger } from '../../core/logger.js';

/** Every event type of decisions §14: the demo listens to all of them. */
const EVENT_TYPES = [
  'booking.confirmed',
  'booking.failed',
  'booking.cancelled',
  'booking.hold_expiring',
  'booking.hold_expired',
  'checkout.session.completed',
  'checkout.session.expired',
];
const KEPT = 50;
export const MAX_BODY_BYTES = 256 * 1024;

export interface ReceivedEvent {
  id: string;
  type: string;
  /** When the event happened (the body's timestamp). */
  timestamp: string;
  receivedAt: string;
  /** What the event is about, in a line: the booking or session, its status, its reference. */
  summary: string;
}

type Api = (method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;

export class DemoWebhooks {
  /** Newest first. */
  readonly events: ReceivedEvent[] = [];
  readonly receiverUrl: string;
  #secret: Webhook | undefined;
  #registering: Promise<void> | undefined;
  readonly #seen = new Set<string>();

  constructor(
    private readonly api: Api,
    origin: string,
    private readonly logger: Logger,
  ) {
    this.receiverUrl = `${origin}/webhooks`;
  }

  /** Registers the receiver once in this process's life (again after a failure). */
  async ensureRegistered(): Promise<void> {
    this.#registering ??= this.#register().catch((error: unknown) => {
      this.#registering = undefined;
      this.logger.warn({ message: (error as Error).message }, 'demo travel: the webhook endpoint could not be registered');
    });
    return this.#registering;
  }

  get registered(): boolean {
    return this.#secret !== undefined;
  }

  async #register(): Promise<void> {
    const listed = await this.api('GET', '/v1/webhooks');
    const endpoints: unknown = listed.body;
    const mine = Array.isArray(endpoints) ? (endpoints as { id: string; url: string }[]).filter((endpoint) => endpoint.url === this.receiverUrl) : [];
    for (const endpoint of mine) await this.api('DELETE', `/v1/webhooks/${endpoint.id}`);
    const created = await this.api('POST', '/v1/webhooks', { url: this.receiverUrl, events: EVENT_TYPES, description: 'Demo Travel’s receiver' });
    if (created.status !== 201 || typeof created.body.secret !== 'string') throw new Error(`Travel Partner answered ${created.status} ${String(created.body.code ?? '')}`);
    this.#secret = new Webhook(created.body.secret);
  }

  /**
   * A delivery: 204 once verified (a repeat of a `webhook-id` is answered alike and not kept twice), 400
   * when the signature or its timestamp does not hold, 503 while no secret is known (the service retries).
   */
  receive(raw: string, headers: Record<string, string | string[] | undefined>): number {
    if (!this.#secret) return 503;
    let body: { type?: unknown; timestamp?: unknown; data?: Record<string, Record<string, unknown>> };
    try {
      body = this.#secret.verify(raw, headers as Record<string, string>) as typeof body;
    } catch {
      return 400;
    }
    const id = String(headers['webhook-id']);
    if (this.#seen.has(id)) return 204;
    this.#seen.add(id);
    this.events.unshift({ id, type: String(body.type), timestamp: String(body.timestamp), receivedAt: new Date().toISOString(), summary: summaryOf(body.data ?? {}) });
    this.events.splice(KEPT);
    return 204;
  }
}

function summaryOf(data: Record<string, Record<string, unknown>>): string {
  const booking = data.booking;
  if (booking) return `booking ${String(booking.id)}: ${String(booking.status)}${booking.airline_pnr ? `, reference ${String(booking.airline_pnr)}` : ''}`;
  const session = data.checkout_session;
  if (session) return `checkout session ${String(session.id)}: ${String(session.status)}${session.airline_pnr ? `, reference ${String(session.airline_pnr)}` : ''}`;
  return 'a test event';
}
