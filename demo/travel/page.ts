/**
 * Demo Travel's pages: the shop (one offer of each provider, each with a <checkout-button>) and the
 * booking page its buttons' booking path leads to, which shows what the agency's backend confirmed. The
 * settings ride in attributes and JSON data blocks (not executed), for the page's script: the page's CSP
 * allows no inline script.
 */
import type { Product } from './offers.js';

export interface ShelfItem {
  product: Pick<Product, 'provider' | 'title' | 'detail' | 'handover'>;
  /** The total, formatted. */
  price?: string;
  /** `handover: 'id'`: the offer the backend created. */
  offerId?: string;
  /** `handover: 'raw'`: the provider's offer, for the button's `flightOffer`. */
  rawOffer?: unknown;
  /** Why this offer is not on sale (its sandbox or the API failed). */
  problem?: string;
}

export interface ShopPageOptions {
  componentUrl: string;
  publishableKey: string;
  iataCode: string;
  bookingPath: string;
  /** Every offer handed over this one way (`?handover=`); mixed when undefined. */
  handover?: Product['handover'];
  items: ShelfItem[];
}

export function shopPage(options: ShopPageOptions): string {
  const items = options.items.map((item) => shelfItem(item, options)).join('\n');
  return layout(
    'Demo Travel',
    `<script type="module" src="${escape(options.componentUrl)}"></script>
  <script type="module" src="/page.js"></script>`,
    `<h1>Flights on sale</h1>
    <p class="hint">Each offer comes straight from a provider. Its button opens Travel Partner's checkout over this page: sign in
      with the code e-mailed to you (in the sandbox, read it at the mail sandbox), add passengers and a test card (4242 4242 4242
      4242), and book. Our backend then confirms the sale with Travel Partner before we show the booking reference.</p>
    <p class="hint" id="handovers">${handoverLinks(options.handover)}</p>
    <section id="result" hidden aria-labelledby="result-title">
      <h2 id="result-title">Your booking</h2>
      <p id="result-text" role="status"></p>
    </section>
    <ul class="shelf">
${items}
    </ul>
    <h2>What the buttons reported</h2>
    <ol id="log"></ol>`,
  );
}

function shelfItem(item: ShelfItem, options: ShopPageOptions): string {
  const { product } = item;
  const id = `offer-${product.provider}`;
  const how =
    product.handover === 'raw'
      ? 'The button hands the provider’s offer to Travel Partner first (<code>flightOffer</code>).'
      : 'Our backend handed the offer to Travel Partner; the button gets its id (<code>flight-offer-id</code>).';
  const button = item.problem
    ? `<p class="problem">Not on sale right now: ${escape(item.problem)}</p>`
    : `<checkout-button iata-code="${escape(options.iataCode)}" api-key="${escape(options.publishableKey)}" provider-id="${product.provider}"${
        item.offerId ? ` flight-offer-id="${escape(item.offerId)}"` : ` data-offer="${id}-data"`
      } booking-path="${escape(options.bookingPath)}" class-name="buy">Book this flight<span class="visually-hidden"> (${escape(product.title)})</span></checkout-button>${
        item.rawOffer === undefined ? '' : `\n        <script type="application/json" id="${id}-data">${jsonData(item.rawOffer)}</script>`
      }`;
  return `      <li class="item" id="${id}">
        <h2 id="${id}-title">${escape(product.title)}</h2>
        <p>${escape(product.detail)}</p>
        <p class="price">${item.price ? escape(item.price) : ''} <span class="hint">${product.provider}</span></p>
        <p class="hint">${how}</p>
        ${button}
      </li>`;
}

/** Links to the shop with every offer handed over one way, and both ways mixed; the current one is not a link. */
function handoverLinks(current: Product['handover'] | undefined): string {
  const ways: Array<[Product['handover'] | undefined, string, string]> = [
    [undefined, '/', 'some raw, some by id'],
    ['raw', '/?handover=raw', 'all raw'],
    ['id', '/?handover=id', 'all by id'],
  ];
  const links = ways.map(([way, href, text]) => (way === current ? `<strong aria-current="page">${text}</strong>` : `<a href="${href}">${text}</a>`));
  return `Offers handed to the buttons: ${links.join(' · ')}.`;
}

export interface BookingPageOptions {
  bookingId: string;
  /** What GET /v1/checkout/sessions/{id} answered; undefined when the service could not be asked. */
  session: { status: string; booking_id?: string | null; airline_pnr?: string | null; total_amount?: string; currency?: string; provider_id?: string } | undefined;
  problem?: string;
}

/** The booking path's page: the backend's confirmation, never the browser's word. */
export function bookingPage(options: BookingPageOptions): string {
  const { session } = options;
  const confirmed = session?.status === 'complete' && session.booking_id === options.bookingId;
  const body = confirmed
    ? `<h1>Booking confirmed</h1>
    <p>Airline booking reference: <strong id="pnr">${escape(session.airline_pnr ?? 'being issued')}</strong></p>
    <p>Total charged: ${escape(formatPrice(Number(session.total_amount), session.currency ?? '') ?? `${session.total_amount ?? ''} ${session.currency ?? ''}`)} (${escape(session.provider_id ?? '')}).</p>
    <p class="hint">Our backend confirmed this sale with Travel Partner (<code>GET /v1/checkout/sessions/{id}</code> with our secret key).</p>`
    : `<h1>We could not confirm this booking</h1>
    <p class="problem" id="problem">${escape(options.problem ?? `The checkout session is ${session?.status ?? 'unknown'}, with no booking ${options.bookingId}.`)}</p>`;
  return layout('Your booking · Demo Travel', '', `${body}\n    <p><a href="/">Book another flight</a></p>`);
}

export interface EventsPageOptions {
  receiverUrl: string;
  /** Whether the endpoint is registered (its secret known) in this process. */
  registered: boolean;
  events: ReadonlyArray<{ id: string; type: string; timestamp: string; receivedAt: string; summary: string }>;
}

/** The events Travel Partner sent the agency's receiver, each verified before it was kept. */
export function eventsPage(options: EventsPageOptions): string {
  const rows = options.events
    .map(
      (event) => `      <li class="event">
        <p><strong>${escape(event.type)}</strong> <span class="verified">✓ signature verified</span></p>
        <p>${escape(event.summary)}</p>
        <p class="hint">Happened ${escape(event.timestamp)}, received ${escape(event.receivedAt)}. <code>webhook-id</code> ${escape(event.id)}</p>
      </li>`,
    )
    .join('\n');
  const status = options.registered
    ? `Our receiver, <code>${escape(options.receiverUrl)}</code>, is registered for every event type with our secret key.`
    : '<span class="problem">Our receiver is not registered yet: Travel Partner did not answer. Reload this page to try again.</span>';
  return layout(
    'Events received · Demo Travel',
    '',
    `<h1>Events received</h1>
    <p class="hint">${status} Each delivery is verified with the <code>standardwebhooks</code> package before it is kept; a repeat of a <code>webhook-id</code> is answered and dropped. Newest first, the last 50.</p>
    ${rows ? `<ol class="events">\n${rows}\n    </ol>` : '<p id="no-events">No event yet: book a flight on <a href="/">the shop</a>, and its <code>checkout.session.completed</code> and <code>booking.confirmed</code> arrive here.</p>'}`,
  );
}

function layout(title: string, head: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escape(title)}</title>
  <link rel="stylesheet" href="/demo.css">
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
  ${head}
</head>
<body>
  <header><a href="/" class="brand">Demo Travel</a> <span class="hint">a sandbox travel agency selling with the Travel Partner checkout button</span>
    <nav aria-label="Demo Travel"><a href="/">Flights</a> <a href="/events">Events received</a></nav></header>
  <main>
    ${main}
  </main>
</body>
</html>
`;
}

/** A price as travelers read it (the currency's own minor units: KWD 3, JPY 0). */
export function formatPrice(amount: number, currency: string): string | undefined {
  if (!Number.isFinite(amount) || !/^[A-Z]{3}$/.test(currency)) return undefined;
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  } catch {
    return undefined;
  }
}

export const DEMO_STYLESHEET = `:root { color-scheme: light dark; --accent: #0b7a5a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: Canvas; color: CanvasText; }
header { padding: 0.75rem 1.5rem; background: var(--accent); color: white; }
header .brand { color: white; font-weight: 700; text-decoration: none; margin-right: 0.5rem; }
header nav { margin-top: 0.25rem; display: flex; gap: 1rem; }
header nav a { color: white; }
.events { list-style: none; padding: 0; display: grid; gap: 0.75rem; }
.event { border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 10px; padding: 0.5rem 1rem; }
.event p { margin: 0.2rem 0; }
.verified { font-size: 0.9rem; font-weight: 600; }
main { max-width: 48rem; margin: 1.5rem auto; padding: 0 1.25rem; overflow-wrap: anywhere; }
.hint { opacity: 0.8; font-size: 0.9rem; }
.shelf { list-style: none; padding: 0; display: grid; gap: 1rem; }
.item { border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 10px; padding: 0.75rem 1rem 1rem; }
.item h2 { margin: 0 0 0.25rem; font-size: 1.15rem; }
.item p { margin: 0.25rem 0; }
.price { font-weight: 700; font-size: 1.1rem; }
.problem { color: #b3261e; font-weight: 600; }
#result { border: 2px solid var(--accent); border-radius: 10px; padding: 0.5rem 1rem; }
#log li { font: 0.9rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.buy { margin-top: 0.5rem; font: inherit; font-weight: 600; min-height: 44px; padding: 0.5rem 1.25rem; border: 0; border-radius: 8px; background: var(--accent); color: white; cursor: pointer; }
.buy:focus-visible { outline: 3px solid CanvasText; outline-offset: 2px; }
.buy[aria-busy=true] { opacity: 0.7; cursor: progress; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
`;

/** JSON in a data block: `<` escaped, so nothing in an offer can end the block or open a comment. */
function jsonData(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
