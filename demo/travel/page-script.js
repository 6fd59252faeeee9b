/**
 * Demo Travel's page script: hands the raw offers to their <checkout-button>s (`flightOffer`), listens to
 * what the buttons report (`onExit`), and, once a traveler booked, asks the agency's own backend to
 * confirm the sale with Travel Partner before showing the booking reference. A sale is never taken from
 * the browser's word alone. `window.demoTravel` keeps what happened, for the browser tests.
 */
const log = document.getElementById('log');
const result = document.getElementById('result');
const resultText = document.getElementById('result-text');
const demo = { exits: [], errors: [], confirmations: [] };
window.demoTravel = demo;

function note(text) {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  log.append(item);
}

function show(text) {
  resultText.textContent = text;
  result.hidden = false;
}

/** The backend's word on the sale: GET /v1/checkout/sessions/{id} with the agency's secret key. */
async function confirm(exit) {
  const response = await fetch(`/api/checkout-sessions/${encodeURIComponent(exit.sessionId)}`, { headers: { accept: 'application/json' } });
  const session = await response.json().catch(() => ({}));
  demo.confirmations.push({ status: response.status, session });
  if (response.ok && session.status === 'complete' && session.booking_id === exit.bookingId) {
    show(`Booking confirmed by our backend. Airline booking reference: ${session.airline_pnr ?? 'being issued'}.`);
    note(`backend: session ${session.status}, PNR ${session.airline_pnr}`);
  } else {
    show(`We could not confirm the booking yet (${session.status ?? response.status}). Reload this page in a moment.`);
    note(`backend: ${response.status} ${session.status ?? session.message ?? ''}`);
  }
}

function onExit(button, exit) {
  demo.exits.push(exit);
  note(`${button.providerID}: onExit ${exit.reason}${exit.bookingId ? ` booking ${exit.bookingId}` : ''}`);
  if (exit.reason === 'booking_confirmed') void confirm(exit);
  else if (exit.reason === 'offer_unavailable') show('That offer is no longer available. Reload the page for fresh offers.');
}

await customElements.whenDefined('checkout-button');
for (const button of document.querySelectorAll('checkout-button')) {
  const data = button.dataset.offer ? document.getElementById(button.dataset.offer) : null;
  if (data) button.flightOffer = JSON.parse(data.textContent);
  button.onExit = (exit) => onExit(button, exit);
  button.addEventListener('checkout-button-error', (event) => {
    demo.errors.push(event.detail);
    note(`${button.providerID}: error ${event.detail.code}`);
  });
}
document.body.dataset.ready = 'true';
