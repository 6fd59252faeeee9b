/**
 * The purchase confirmation page (decisions §10): what an agent asks to buy, rendered only from the
 * confirmation we stored (ConfirmationView), never from anything the agent wrote; Confirm and Decline for
 * the traveler it is for, and for every other state a page saying what happened and what to do next.
 */
import type { ConfirmationView } from '../../core/purchases/contracts.js';
import { html, page, type Html } from './html.js';

export interface ConfirmPageContext {
  view: ConfirmationView;
  email: string;
  /** The decision form: where Confirm and Decline post, and its CSRF token. */
  decision: { confirmAction: string; declineAction: string; csrfToken: string };
  signOut: { action: string; csrfToken: string };
}

/** The page for the state the confirmation is in, with the HTTP status it is answered with. */
export function confirmationPage(context: ConfirmPageContext): { status: number; body: string } {
  const { view } = context;
  const agent = html`<strong>${view.clientName}</strong>`;
  if (view.expired) {
    return {
      status: 410,
      body: page(
        'This confirmation expired',
        html`<p>This request from ${agent} expired at ${when(view.expiresAt)} before it was used. Nothing was charged.</p>
    <p>If you still want this purchase, go back to ${agent} and ask it to book again: it will give you a new link.</p>
    ${purchase(view)}${signedIn(context)}`,
      ),
    };
  }
  switch (view.status) {
    case 'pending':
      return {
        status: 200,
        body: page(
          'Confirm your purchase',
          html`<p>${agent} asks to book this for you and charge your card. Nothing is charged unless you confirm.</p>
    ${purchase(view)}
    <p class="hint">Check every line: this is exactly what will be bought. This request expires at ${when(view.expiresAt)}.</p>
    ${decisionForm(context, html`<button class="primary" type="submit">Confirm and pay ${view.summary.total.total_amount} ${view.summary.total.currency}</button>
        <button class="secondary" type="submit" formaction="${context.decision.declineAction}">Decline</button>`)}
    ${signedIn(context)}`,
        ),
      };
    case 'confirmed':
      return {
        status: 200,
        body: page(
          'Purchase confirmed',
          html`<p class="notice" role="status">You confirmed this purchase.</p>
    <p>Go back to ${agent}: it can complete the booking now, until ${when(view.expiresAt)}. Your card is charged only when it does.</p>
    ${purchase(view)}
    ${decisionForm(context, html`<button class="secondary" type="submit" formaction="${context.decision.declineAction}">Changed your mind? Decline</button>`)}
    ${signedIn(context)}`,
        ),
      };
    case 'declined':
      return {
        status: 200,
        body: page(
          'Purchase declined',
          html`<p class="notice" role="status">You declined this purchase. Nothing was charged, and ${agent} cannot make it with this request.</p>
    <p>Go back to ${agent} and tell it what you want instead.</p>
    ${purchase(view)}${signedIn(context)}`,
        ),
      };
    case 'used':
      return {
        status: 200,
        body: page(
          'Purchase booked',
          html`<p class="notice" role="status">This purchase was booked with your confirmation. It cannot be used again.</p>
    <p>Go back to ${agent} to see the booking. To buy something else, it will ask you again.</p>
    ${purchase(view)}${signedIn(context)}`,
        ),
      };
  }
}

/** Another traveler's confirmation: nothing of it is shown, and nothing changes. */
export function notYoursPage(context: { email: string; signOut: { action: string; csrfToken: string } }): string {
  return page(
    'This purchase is for another account',
    html`<p class="error" role="alert">You are signed in as <strong>${context.email}</strong>, but this purchase confirmation belongs to another Travel Partner account. Nothing was changed.</p>
    <p>If the app books for you with another account, sign out, open the link again and sign in with that account.</p>
    ${signOutForm(context.signOut)}`,
  );
}

export function notFoundPage(): string {
  return page(
    'Confirmation not found',
    html`<p class="error" role="alert">There is no purchase confirmation at this address. Nothing was charged.</p>
    <p>Check that you opened the whole link the app gave you, or go back to the app and ask it to book again.</p>`,
  );
}

function purchase(view: ConfirmationView): Html {
  const { summary } = view;
  const { total } = summary;
  const money = (amount: string | null) => (amount === null ? '' : `${amount} ${total.currency}`);
  return html`<section aria-labelledby="flights"><h2 id="flights">Flights</h2>
      <ul>${summary.slices.map(itinerary)}</ul></section>
    <section aria-labelledby="passengers"><h2 id="passengers">Passengers</h2>
      <ul>${summary.passengers.map((passenger) => html`<li>${passenger.name} <span class="hint">(${passenger.type.replaceAll('_', ' ')}, born ${passenger.bornOn})</span></li>`)}</ul></section>
    ${
      summary.seats.length > 0
        ? html`<section aria-labelledby="seats"><h2 id="seats">Seats</h2>
      <ul>${summary.seats.map((seat) => html`<li>${seat.passenger}: seat ${seat.seatNumber} on ${seat.segment} (${seat.price === null ? 'free' : money(seat.price)})</li>`)}</ul></section>`
        : ''
    }
    ${
      summary.services.length > 0
        ? html`<section aria-labelledby="extras"><h2 id="extras">Bags and extras</h2>
      <ul>${summary.services.map((service) => html`<li>${service.quantity} × ${service.title} (${money(service.totalAmount)} each)</li>`)}</ul></section>`
        : ''
    }
    <section aria-labelledby="payment"><h2 id="payment">Payment</h2>
      <p>${capitalized(summary.card.brand)} card ending in ${summary.card.last4}</p>
      <table>
        <caption class="hint">Total in ${total.currency}</caption>
        ${total.base_amount !== null ? html`<tr><th scope="row">Fare</th><td>${money(total.base_amount)}</td></tr>` : ''}
        ${total.tax_amount !== null ? html`<tr><th scope="row">Taxes and fees</th><td>${money(total.tax_amount)}</td></tr>` : ''}
        <tr><th scope="row">Bags and extras</th><td>${money(total.services_amount)}</td></tr>
        <tr><th scope="row">Seats</th><td>${money(total.seats_amount)}</td></tr>
        <tr><th scope="row">Total</th><td><strong>${money(total.total_amount)}</strong></td></tr>
      </table></section>`;
}

type SliceSummary = ConfirmationView['summary']['slices'][number];

/**
 * A slice as a list item. A direct flight is one line; a slice with connections names every airport it
 * passes through (LHR → DUB → JFK), then each flight with its airports and local times, and each change
 * of plane with the time on the ground. Confirmations stored before segments were kept show the slice's
 * ends and flight numbers only.
 */
function itinerary(slice: SliceSummary): Html {
  const times = `${local(slice.departingAt)} → ${local(slice.arrivingAt)}`;
  const segments = slice.segments ?? [];
  if (segments.length < 2) {
    return html`<li><strong>${slice.origin} → ${slice.destination}</strong>, ${times} <span class="hint">(${slice.flights.join(', ')}; local times)</span></li>`;
  }
  const stops = segments.slice(1).map((segment) => segment.origin);
  const route = [segments[0]?.origin ?? slice.origin, ...segments.map((segment) => segment.destination)].join(' → ');
  // Numbered flights; a change of plane is a note under the flight that lands there, not an item of its own.
  const legs = segments.map((segment, index) => {
    const next = segments[index + 1];
    const change = next ? html`<br><span class="hint">Change at ${next.origin}${layover(segment.arrivingAt, next.departingAt)}</span>` : '';
    return html`<li>${segment.flight}, ${segment.origin} ${local(segment.departingAt)} → ${segment.destination} ${local(segment.arrivingAt)}${change}</li>`;
  });
  return html`<li><strong>${route}</strong>, ${times} <span class="hint">(${stops.length === 1 ? '1 stop' : `${stops.length} stops`}, at ${stops.join(', ')}; local times)</span>
        <ol>${legs}</ol></li>`;
}

/** The time on the ground between two local times at the same airport (": 3 h 5 min"), or nothing if they do not read as times. */
function layover(arriving: string, departing: string): string {
  const minutes = (Date.parse(`${departing.slice(0, 16)}Z`) - Date.parse(`${arriving.slice(0, 16)}Z`)) / 60_000;
  if (!Number.isFinite(minutes) || minutes < 0) return '';
  const hours = Math.floor(minutes / 60);
  return `: ${hours > 0 ? `${hours} h ` : ''}${minutes % 60} min`;
}

function decisionForm(context: ConfirmPageContext, buttons: Html): Html {
  return html`<form method="post" action="${context.decision.confirmAction}">
      <input type="hidden" name="csrf" value="${context.decision.csrfToken}">
      <div class="actions">${buttons}</div>
    </form>`;
}

function signedIn(context: ConfirmPageContext): Html {
  return html`<p class="hint">Signed in as <strong>${context.email}</strong>.</p>${signOutForm(context.signOut)}`;
}

function signOutForm(signOut: { action: string; csrfToken: string }): Html {
  return html`<form method="post" action="${signOut.action}">
      <input type="hidden" name="csrf" value="${signOut.csrfToken}">
      <p class="hint">Not your account? <button class="secondary" type="submit">Sign out</button></p>
    </form>`;
}

/** An instant, in UTC, as people read it: 2026-06-01 08:25 UTC. */
function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A local time at an airport: 2026-06-01 08:25. */
function local(value: string): string {
  return value.slice(0, 16).replace('T', ' ');
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
