/**
 * The demo page's script (served as /demo/cards.js): shows the component's events and selected card as a
 * partner's page would receive them. The events are also kept in `window.cardCaptureEvents` for the
 * browser tests.
 */
const element = document.querySelector('card-capture');
const list = document.getElementById('events');
const selected = document.getElementById('selected');
const events = [];
window.cardCaptureEvents = events;

element.onEvent = (event) => {
  events.push(event);
  const item = document.createElement('li');
  item.textContent = `${event.action} ${JSON.stringify(event.properties)}`;
  list.append(item);
};
element.addEventListener('change', () => {
  selected.textContent = element.selectedPaymentMethodId ?? 'none';
});
