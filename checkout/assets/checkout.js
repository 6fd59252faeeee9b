/**
 * The hosted checkout's script (decisions §12), an ES module of our own with no framework: it reads the
 * client secret from the URL's fragment, asks our JSON API for the session and its offer, and walks the
 * traveler through the steps: the offer, sign-in (an e-mailed code), passengers, seats and bags where the
 * provider sells them, the card (saved ones, or a new one in the card vault's fields nested here), the
 * review with the final total, and the booking.
 *
 * The page is built with DOM calls only (no markup from strings). Each step has a heading that takes the
 * focus, labelled fields with their errors tied to them, and works by keyboard alone.
 *
 * Messages go to the embedding page at the session's origin only (the API says which; never a referrer
 * or a message): SVC_CHECKOUT_READY, SVC_CHECKOUT_BUSY {busy} (true while the pay request runs, false once
 * it ends, whatever its outcome), SVC_CHECKOUT_CLOSE_REQUESTED, SVC_BOOKING_COMPLETE and
 * SVC_BOOKING_FAILED. Framed, the page hides its own Close control (the dialog around it has one). No message from the embedding page is needed or read; the vault frame's messages are
 * taken from its exact origin and window only, and never carry card data.
 */

const root = document.getElementById('checkout');
const sessionId = root.dataset.sessionId;
const storageKey = (name) => `checkout:${sessionId}:${name}`;

/** sessionStorage is the frame's own (partitioned where third-party); where it is refused, memory only. */
const stored = {
  get(name) {
    try {
      return window.sessionStorage.getItem(storageKey(name)) || undefined;
    } catch {
      return undefined;
    }
  },
  set(name, value) {
    try {
      if (value === undefined) window.sessionStorage.removeItem(storageKey(name));
      else window.sessionStorage.setItem(storageKey(name), value);
    } catch {
      // Kept in memory only: a reload then starts again from the sign-in.
    }
  },
};

const secret = decodeURIComponent(window.location.hash.slice(1)) || stored.get('secret');
if (secret) stored.set('secret', secret);

const state = {
  travelerToken: stored.get('traveler'),
  /** The embedding page's origin, from the API: the only target of our messages. */
  parentOrigin: undefined,
  summary: undefined,
  offer: undefined,
  steps: undefined,
  traveler: undefined,
  savedPassengers: [],
  cards: [],
  seatMaps: undefined,
  choices: { passengers: [], phone_number: '', seats: [], bags: [], payment_method_id: undefined },
  review: undefined,
  /** The flight's total as the offer step showed it, and the total the traveler last accepted. */
  shownOfferTotal: undefined,
  acceptedTotal: undefined,
  priceAccepted: true,
  cardProblem: undefined,
  /** Cards the processor declined in this checkout: not chosen for the traveler again. */
  declined: new Set(),
  finished: false,
};

// ---- Building the page --------------------------------------------------------------------------

/** An element with attributes (`on*` as listeners) and children (strings become text). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'text') element.textContent = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

const STEP_NAMES = { offer: 'Your flight', signIn: 'Sign in', passengers: 'Passengers', seats: 'Seats', bags: 'Bags', card: 'Payment', review: 'Review and pay' };

function stepOrder() {
  return ['offer', 'signIn', 'passengers', ...(state.steps?.seats ? ['seats'] : []), ...(state.steps?.bags ? ['bags'] : []), 'card', 'review'];
}

/** Replaces the page's content with one step: its progress line, its heading (focused) and its body. */
function showStep(step, title, ...body) {
  const order = stepOrder();
  const index = order.indexOf(step);
  const heading = h('h2', { id: 'step-heading', tabindex: '-1' }, title);
  const section = h(
    'section',
    { 'aria-labelledby': 'step-heading' },
    index >= 0 ? h('p', { class: 'progress' }, `Step ${index + 1} of ${order.length}`) : null,
    heading,
    ...body,
  );
  root.replaceChildren(section);
  heading.focus();
  window.scrollTo(0, 0);
}

/** A labelled field with its hint and its error, tied together for screen readers. */
function field({ id, label, hint, type = 'text', value = '', autocomplete, inputmode, options, required = true }) {
  const describedBy = [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' ');
  const control = options
    ? h('select', { id, name: id, 'aria-describedby': describedBy, required }, options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text)))
    : h('input', { id, name: id, type, value, autocomplete, inputmode, 'aria-describedby': describedBy, required, spellcheck: type === 'text' ? 'false' : undefined });
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    hint ? h('span', { class: 'hint', id: `${id}-hint` }, hint) : null,
    control,
    h('p', { class: 'error', id: `${id}-error` }),
  );
}

const valueOf = (id) => document.getElementById(id)?.value.trim() ?? '';

/** Shows `message` under the field (or clears it); returns whether there was a problem. */
function fieldError(id, message) {
  const control = document.getElementById(id);
  const error = document.getElementById(`${id}-error`);
  if (control) control.setAttribute('aria-invalid', message ? 'true' : 'false');
  if (error) error.textContent = message || '';
  return Boolean(message);
}

function alertBox(message, id = 'step-error') {
  return h('p', { class: 'error', role: 'alert', id }, message || '');
}

function setAlert(message, id = 'step-error') {
  const box = document.getElementById(id);
  if (box) box.textContent = message || '';
}

function busy(button, text) {
  const label = button.textContent;
  button.disabled = true;
  button.textContent = text;
  return () => {
    button.disabled = false;
    button.textContent = label;
  };
}

// ---- Words ----------------------------------------------------------------------------------------

const money = (amount, currency) => `${amount} ${currency}`;
const TYPES = { adult: 'adult', child: 'child', infant_without_seat: 'infant on a lap' };
const TRAVELER_TYPE_OF = { adult: 'adult', child: 'child', infant: 'infant_without_seat' };

function place(value) {
  return value.city_name ? `${value.city_name} (${value.iata_code})` : value.name ? `${value.name} (${value.iata_code})` : value.iata_code;
}

/** A local airport time ("2026-06-01T08:25:00") as written, never shifted to the browser's zone. */
function when(localTime) {
  const date = new Date(`${localTime}Z`);
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(date);
}

function duration(iso) {
  const match = /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?/.exec(iso || '');
  if (!match) return '';
  const hours = Number(match[1] || 0) * 24 + Number(match[2] || 0);
  return [hours ? `${hours} h` : '', match[3] ? `${Number(match[3])} min` : ''].filter(Boolean).join(' ');
}

function passengerLabel(index) {
  const passenger = state.offer.passengers[index];
  return `Passenger ${index + 1} (${TYPES[passenger.type] || passenger.type})`;
}

function passengerName(index) {
  const chosen = state.choices.passengers[index];
  if (!chosen) return passengerLabel(index);
  if (chosen.saved_passenger_id) {
    const saved = state.savedPassengers.find((item) => item.id === chosen.saved_passenger_id);
    if (saved) return `${saved.first_name} ${saved.last_name}`;
  }
  return chosen.first_name ? `${chosen.first_name} ${chosen.last_name}` : passengerLabel(index);
}

// ---- Talking to our API and to the embedding page ---------------------------------------------------

/** Thrown when a call ended the flow (the session expired, the sign-in ended): the page already says so. */
class Stopped extends Error {}
window.addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof Stopped) event.preventDefault();
});

async function api(path, { method = 'GET', body, traveler = false } = {}) {
  const headers = { 'x-checkout-secret': secret || '' };
  if (traveler && state.travelerToken) headers['x-checkout-traveler'] = state.travelerToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(`/checkout/${sessionId}/api/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store' });
  } catch {
    return { status: 0, body: { code: 'network', message: 'We could not reach the checkout: check your connection and try again.' } };
  }
  const answer = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (response.status === 410 && answer.code === 'checkout_session_expired') {
    sessionOver('session_expired');
    throw new Stopped('session expired');
  }
  if (response.status === 401 && answer.code === 'checkout_sign_in_required' && traveler) {
    signedOut();
    showSignIn('Your sign-in has ended: sign in again to continue.');
    throw new Stopped('signed out');
  }
  return { status: response.status, body: answer };
}

function tell(message) {
  if (state.parentOrigin && window.parent !== window) window.parent.postMessage(message, state.parentOrigin);
}

function requestClose() {
  tell({ type: 'SVC_CHECKOUT_CLOSE_REQUESTED' });
}

// Framed, the dialog around the checkout has its own close control: ours would be a second one.
// Escape inside the frame still asks the embedding page to close it.
const closeControl = document.getElementById('close');
if (window.parent !== window) closeControl.hidden = true;
closeControl.addEventListener('click', requestClose);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') requestClose();
});

function showWho() {
  const who = document.getElementById('who');
  who.replaceChildren();
  if (!state.traveler) {
    who.hidden = true;
    return;
  }
  who.hidden = false;
  who.append(`Signed in as ${state.traveler.email} `, h('button', { type: 'button', class: 'link', onclick: signOut }, 'Sign out'));
}

function signedOut() {
  state.travelerToken = undefined;
  state.traveler = undefined;
  state.savedPassengers = [];
  state.cards = [];
  stored.set('traveler', undefined);
  showWho();
}

async function signOut() {
  await api('sign-out', { method: 'POST', traveler: true }).catch(() => undefined);
  signedOut();
  showSignIn();
}

// ---- Start ------------------------------------------------------------------------------------------

async function start() {
  if (!secret) {
    root.replaceChildren(h('h2', {}, 'This checkout cannot open'), h('p', {}, 'The link is incomplete. Go back to the site you came from and start again.'));
    return;
  }
  const { status, body } = await api('session', { traveler: true });
  if (status !== 200) {
    root.replaceChildren(h('h2', { id: 'step-heading', tabindex: '-1' }, 'This checkout cannot open'), h('p', {}, 'It does not exist or has ended. Go back to the site you came from and start again.'));
    return;
  }
  state.summary = body;
  state.parentOrigin = body.session.origin;
  state.offer = body.offer;
  state.steps = body.steps;
  state.traveler = body.traveler || undefined;
  if (!state.traveler && state.travelerToken) signedOut();
  showWho();
  tell({ type: 'SVC_CHECKOUT_READY' });
  const { session } = body;
  if (session.status === 'complete') return showDone({ booking_id: session.booking_id, airline_pnr: session.airline_pnr, provider_id: session.provider_id });
  if (session.status === 'expired') return sessionOver('session_expired');
  if (session.status === 'failed') return sessionOver(session.failure_reason === 'search_again' ? 'search_again' : 'offer_unavailable');
  state.shownOfferTotal = state.offer.total_amount;
  if (state.traveler) await loadTravelerData();
  showOffer();
}

async function loadTravelerData() {
  const [passengers, cards] = await Promise.all([api('passengers', { traveler: true }), api('cards', { traveler: true })]);
  state.savedPassengers = passengers.status === 200 ? passengers.body : [];
  state.cards = cards.status === 200 ? cards.body : [];
  if (!state.choices.payment_method_id) state.choices.payment_method_id = (state.cards.find((card) => card.is_default) || state.cards[0])?.id;
}

// ---- The offer --------------------------------------------------------------------------------------

function showOffer() {
  const { offer } = state;
  const counts = {};
  for (const passenger of offer.passengers) counts[passenger.type] = (counts[passenger.type] || 0) + 1;
  const conditions = offer.conditions;
  showStep(
    'offer',
    STEP_NAMES.offer,
    ...offer.slices.map((slice) =>
      h(
        'div',
        { class: 'slice' },
        h('h3', {}, `${place(slice.origin)} to ${place(slice.destination)}`),
        h('p', { class: 'meta' }, [slice.stops === 0 ? 'Direct' : slice.stops === 1 ? '1 stop' : `${slice.stops} stops`, duration(slice.duration)].filter(Boolean).join(' · ')),
        h(
          'ul',
          { class: 'segments' },
          slice.segments.map((segment) =>
            h(
              'li',
              {},
              h('span', { class: 'times' }, `${when(segment.departing_at)} ${place(segment.origin)} → ${when(segment.arriving_at)} ${place(segment.destination)}`),
              h('br'),
              h('span', { class: 'meta' }, [`${segment.carrier} ${segment.flight_number}`, segment.operated_by ? `operated by ${segment.operated_by}` : '', segment.aircraft || '', segment.cabin || ''].filter(Boolean).join(' · ')),
            ),
          ),
        ),
      ),
    ),
    h('h3', {}, 'Fare conditions'),
    h(
      'ul',
      { class: 'plain' },
      h('li', {}, conditions.refundable === null ? 'Refunds: ask the airline' : conditions.refundable ? `Refundable${conditions.refund_penalty ? ` (fee ${conditions.refund_penalty})` : ''}` : 'Not refundable'),
      h('li', {}, conditions.changeable === null ? 'Changes: ask the airline' : conditions.changeable ? `Changes allowed${conditions.change_penalty ? ` (fee ${conditions.change_penalty})` : ''}` : 'No changes allowed'),
      h('li', {}, `Travelers: ${Object.entries(counts).map(([type, count]) => `${count} ${TYPES[type] || type}${count > 1 && type !== 'infant_without_seat' ? 's' : ''}`).join(', ')}`),
    ),
    h(
      'dl',
      { class: 'totals' },
      offer.base_amount ? [h('dt', {}, 'Fare'), h('dd', {}, money(offer.base_amount, offer.total_currency))] : null,
      offer.tax_amount ? [h('dt', {}, 'Taxes and fees'), h('dd', {}, money(offer.tax_amount, offer.total_currency))] : null,
      h('dt', { class: 'grand' }, 'Total'),
      h('dd', { class: 'grand' }, money(offer.total_amount, offer.total_currency)),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: () => (state.traveler ? showPassengers() : showSignIn()) }, 'Continue')),
  );
}

// ---- Sign-in: the hosted sign-in's e-mailed code ---------------------------------------------------

function showSignIn(notice) {
  const form = h(
    'form',
    { novalidate: true, onsubmit: (event) => (event.preventDefault(), sendCode(event.submitter || form.querySelector('button'))) },
    field({ id: 'email', label: 'E-mail address', type: 'email', autocomplete: 'email', hint: 'We e-mail you a code to sign in: no password. New here? Your account is made as you sign in.' }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Send code'), h('button', { type: 'button', onclick: showOffer }, 'Back')),
  );
  showStep('signIn', STEP_NAMES.signIn, notice ? h('p', { class: 'notice', role: 'status' }, notice) : null, alertBox(), form);
}

async function sendCode(button) {
  const email = valueOf('email');
  if (fieldError('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? '' : 'Enter your e-mail address, like name@example.com.')) return document.getElementById('email').focus();
  const done = busy(button, 'Sending…');
  const { status, body } = await api('sign-in', { method: 'POST', body: { email } });
  done();
  if (status === 200) return showCode(body);
  if (status === 429 && body.code === 'code_resend_too_soon') return showCode({ sent_to: email, digits: undefined }, body.message);
  if (body.fields?.email) return fieldError('email', 'Enter your e-mail address, like name@example.com.') && document.getElementById('email').focus();
  setAlert(body.message || 'The code could not be sent: try again.');
}

function showCode(sent, notice) {
  const form = h(
    'form',
    { novalidate: true, onsubmit: (event) => (event.preventDefault(), checkCode(form.querySelector('button[type=submit]'))) },
    field({ id: 'code', label: 'Code', inputmode: 'numeric', autocomplete: 'one-time-code', hint: `We sent ${sent.digits ? `a ${sent.digits}-digit code` : 'a code'} to ${sent.sent_to}. It works for 10 minutes.` }),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
      h('button', { type: 'button', onclick: (event) => resendCode(event.currentTarget) }, 'Send a new code'),
      h('button', { type: 'button', onclick: () => showSignIn() }, 'Use another e-mail'),
    ),
  );
  showStep('signIn', 'Enter your code', h('p', { class: 'status', role: 'status', id: 'code-notice' }, notice || ''), alertBox(), form);
}

async function resendCode(button) {
  const done = busy(button, 'Sending…');
  const { status, body } = await api('sign-in/resend', { method: 'POST' });
  done();
  setAlert(status === 200 ? '' : body.message || 'No new code could be sent: try again in a minute.');
  document.getElementById('code-notice').textContent = status === 200 ? 'We sent you a new code.' : '';
}

async function checkCode(button) {
  const code = valueOf('code').replace(/\s/g, '');
  if (fieldError('code', /^\d{6,8}$/.test(code) ? '' : 'Enter the 6 or 8 digits from the e-mail.')) return document.getElementById('code').focus();
  const done = busy(button, 'Signing in…');
  const { status, body } = await api('sign-in/code', { method: 'POST', body: { code } });
  done();
  if (status !== 200) {
    fieldError('code', body.code === 'validation_error' ? 'That code is not right: check it and try again.' : body.message || 'That code did not work: ask for a new one.');
    return document.getElementById('code').focus();
  }
  state.travelerToken = body.traveler_token;
  stored.set('traveler', body.traveler_token);
  state.traveler = { email: body.email };
  showWho();
  await loadTravelerData();
  showPassengers();
}

// ---- Passengers -------------------------------------------------------------------------------------

function savedFor(index) {
  const type = state.offer.passengers[index].type;
  return state.savedPassengers.filter((saved) => TRAVELER_TYPE_OF[saved.traveler_type] === type);
}

function passportFields(prefix, documents) {
  if (!documents) return [];
  return [
    field({ id: `${prefix}-passport`, label: 'Passport number', autocomplete: 'off' }),
    field({ id: `${prefix}-country`, label: 'Passport issued by', hint: 'The two-letter country code, such as GB, US or FR.', autocomplete: 'off' }),
    field({ id: `${prefix}-expiry`, label: 'Passport expiry date', type: 'date' }),
  ];
}

/** Who each passenger is at first: as chosen before, else the next saved traveler of their type not taken yet. */
function preselections() {
  const chosen = [];
  state.offer.passengers.forEach((_, index) => {
    const before = state.choices.passengers[index];
    chosen.push(before ? before.saved_passenger_id || 'new' : savedFor(index).find((item) => !chosen.includes(item.id))?.id || 'new');
  });
  return chosen;
}

function passengerFieldset(index, preselected) {
  const prefix = `p${index}`;
  const saved = savedFor(index);
  const chosen = state.choices.passengers[index];
  const documents = state.steps.documents;
  const options = saved.map((item) => {
    const passport = item.passport ? `, passport ending ${item.passport.number_ending}` : documents ? ', no passport saved' : '';
    return h(
      'div',
      { class: 'choice' },
      h('input', { type: 'radio', name: `${prefix}-who`, id: `${prefix}-saved-${item.id}`, value: item.id, checked: preselected === item.id, onchange: () => toggleNew(prefix) }),
      h('label', { for: `${prefix}-saved-${item.id}` }, `${item.first_name} ${item.last_name}, born ${item.born_on}${passport}`),
    );
  });
  const fresh = chosen && !chosen.saved_passenger_id ? chosen : {};
  return h(
    'fieldset',
    { id: `${prefix}` },
    h('legend', {}, passengerLabel(index)),
    saved.length > 0 ? h('p', { class: 'hint' }, 'Choose a saved traveler, or add someone new.') : null,
    ...options,
    saved.length > 0
      ? h(
          'div',
          { class: 'choice' },
          h('input', { type: 'radio', name: `${prefix}-who`, id: `${prefix}-new`, value: 'new', checked: preselected === 'new', onchange: () => toggleNew(prefix) }),
          h('label', { for: `${prefix}-new` }, 'Someone new'),
        )
      : null,
    h(
      'div',
      { id: `${prefix}-fields`, hidden: preselected !== 'new' },
      field({ id: `${prefix}-first`, label: 'First name', hint: 'As in the passport.', autocomplete: 'off', value: fresh.first_name || '' }),
      field({ id: `${prefix}-last`, label: 'Last name', autocomplete: 'off', value: fresh.last_name || '' }),
      field({ id: `${prefix}-born`, label: 'Date of birth', type: 'date', value: fresh.born_on || '' }),
      field({ id: `${prefix}-gender`, label: 'Gender', value: fresh.gender || '', options: [['', 'Choose…'], ['female', 'Female'], ['male', 'Male']] }),
    ),
    h('div', { id: `${prefix}-documents`, hidden: !documents || !needsPassport(prefix, preselected) }, ...passportFields(prefix, documents)),
    h(
      'div',
      { class: 'choice', id: `${prefix}-keep`, hidden: preselected !== 'new' },
      h('input', { type: 'checkbox', id: `${prefix}-save` }),
      h('label', { for: `${prefix}-save` }, 'Save this traveler to my account for next time'),
    ),
  );
}

/** A passport is asked for a new passenger, and for a saved one without a passport, where the offer needs one. */
function needsPassport(prefix, chosen) {
  if (!state.steps.documents) return false;
  if (chosen === 'new') return true;
  return !state.savedPassengers.find((item) => item.id === chosen)?.passport;
}

function chosenIn(prefix) {
  return document.querySelector(`input[name=${prefix}-who]:checked`)?.value || 'new';
}

function toggleNew(prefix) {
  const chosen = chosenIn(prefix);
  document.getElementById(`${prefix}-fields`).hidden = chosen !== 'new';
  document.getElementById(`${prefix}-keep`).hidden = chosen !== 'new';
  document.getElementById(`${prefix}-documents`).hidden = !needsPassport(prefix, chosen);
}

function showPassengers() {
  const form = h(
    'form',
    { novalidate: true, onsubmit: (event) => (event.preventDefault(), submitPassengers(form.querySelector('button[type=submit]'))) },
    preselections().map((preselected, index) => passengerFieldset(index, preselected)),
    field({ id: 'phone', label: 'Phone number for the airline', type: 'tel', autocomplete: 'tel', hint: 'With the country code, such as +447700900123. The airline uses it only about this trip.', value: state.choices.phone_number }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Continue'), h('button', { type: 'button', onclick: showOffer }, 'Back')),
  );
  showStep('passengers', STEP_NAMES.passengers, alertBox(), form);
}

function readPassenger(index, problems) {
  const prefix = `p${index}`;
  const chosen = chosenIn(prefix);
  const passenger = { provider_passenger_id: state.offer.passengers[index].id };
  if (chosen !== 'new') passenger.saved_passenger_id = chosen;
  else {
    const first = valueOf(`${prefix}-first`);
    const last = valueOf(`${prefix}-last`);
    const born = valueOf(`${prefix}-born`);
    const gender = valueOf(`${prefix}-gender`);
    if (fieldError(`${prefix}-first`, first ? '' : 'Enter the first name.')) problems.push(`${prefix}-first`);
    if (fieldError(`${prefix}-last`, last ? '' : 'Enter the last name.')) problems.push(`${prefix}-last`);
    if (fieldError(`${prefix}-born`, /^\d{4}-\d{2}-\d{2}$/.test(born) ? '' : 'Enter the date of birth.')) problems.push(`${prefix}-born`);
    if (fieldError(`${prefix}-gender`, gender ? '' : 'Choose the gender, as in the passport.')) problems.push(`${prefix}-gender`);
    Object.assign(passenger, { first_name: first, last_name: last, born_on: born, gender });
  }
  if (needsPassport(prefix, chosen)) {
    const number = valueOf(`${prefix}-passport`);
    const country = valueOf(`${prefix}-country`).toUpperCase();
    const expiry = valueOf(`${prefix}-expiry`);
    if (fieldError(`${prefix}-passport`, /^[A-Za-z0-9]{3,50}$/.test(number) ? '' : 'Enter the passport number: letters and digits.')) problems.push(`${prefix}-passport`);
    if (fieldError(`${prefix}-country`, /^[A-Z]{2}$/.test(country) ? '' : 'Enter the two-letter country code, such as GB.')) problems.push(`${prefix}-country`);
    if (fieldError(`${prefix}-expiry`, /^\d{4}-\d{2}-\d{2}$/.test(expiry) ? '' : 'Enter the passport’s expiry date.')) problems.push(`${prefix}-expiry`);
    passenger.passport = { number, issuing_country_code: country, expires_on: expiry };
  }
  return passenger;
}

/** The server's field names (`passengers.0.born_on`, `first_name`) as our fields' ids. */
function fieldIdOf(index, name) {
  const map = { first_name: 'first', last_name: 'last', born_on: 'born', gender: 'gender', identity_documents: 'passport', number: 'passport', issuing_country_code: 'country', expires_on: 'expiry', date_of_birth: 'born' };
  const key = Object.keys(map).find((candidate) => name.includes(candidate));
  return key ? `p${index}-${map[key]}` : undefined;
}

async function submitPassengers(button) {
  const problems = [];
  const passengers = state.offer.passengers.map((_, index) => readPassenger(index, problems));
  const phone = valueOf('phone').replace(/[\s()-]/g, '');
  if (fieldError('phone', /^\+[1-9]\d{6,18}$/.test(phone) ? '' : 'Enter the phone number with its country code, such as +447700900123.')) problems.push('phone');
  const saved = passengers.map((passenger) => passenger.saved_passenger_id).filter(Boolean);
  if (new Set(saved).size !== saved.length) {
    setAlert('Each saved traveler can fly as one passenger only: choose someone else, or add someone new.');
    return;
  }
  if (problems.length > 0) return document.getElementById(problems[0]).focus();
  setAlert('');
  const done = busy(button, 'Saving…');
  // New passengers the traveler asked us to keep are saved now, and travel as saved passengers.
  for (const [index, passenger] of passengers.entries()) {
    if (passenger.saved_passenger_id || !document.getElementById(`p${index}-save`)?.checked) continue;
    const { provider_passenger_id: _id, ...fields } = passenger;
    const { status, body } = await api('passengers', { method: 'POST', body: fields, traveler: true });
    if (status !== 201) {
      done();
      const fieldNames = Object.keys(body.fields || {});
      for (const name of fieldNames) fieldError(fieldIdOf(index, name), body.fields[name].message);
      setAlert(fieldNames.length > 0 ? `Check the details of ${passengerLabel(index)}.` : body.message || 'The traveler could not be saved: try again.');
      const first = fieldNames.map((name) => fieldIdOf(index, name)).find(Boolean);
      if (first) document.getElementById(first)?.focus();
      return;
    }
    state.savedPassengers.push(body);
    passengers[index] = { provider_passenger_id: passenger.provider_passenger_id, saved_passenger_id: body.id, ...(passenger.passport ? { passport: passenger.passport } : {}) };
  }
  done();
  state.choices.passengers = passengers;
  state.choices.phone_number = phone;
  nextAfter('passengers');
}

function nextAfter(step) {
  const order = stepOrder();
  const next = order[order.indexOf(step) + 1];
  if (next === 'seats') return showSeats();
  if (next === 'bags') return showBags();
  if (next === 'card') return showCard();
  return showReview();
}

function previousOf(step) {
  const order = stepOrder();
  const previous = order[order.indexOf(step) - 1];
  if (previous === 'seats') return showSeats;
  if (previous === 'bags') return showBags;
  if (previous === 'card') return showCard;
  if (previous === 'passengers') return showPassengers;
  return showOffer;
}

// ---- Seats ------------------------------------------------------------------------------------------

async function showSeats() {
  if (!state.seatMaps) {
    root.replaceChildren(h('p', { class: 'status', role: 'status' }, 'Loading the seat maps…'));
    const { status, body } = await api('seat-maps');
    state.seatMaps = status === 200 ? body : [];
  }
  const segments = new Map(state.offer.slices.flatMap((slice) => slice.segments.map((segment) => [segment.id, segment])));
  const seated = state.offer.passengers.map((passenger, index) => ({ passenger, index })).filter(({ passenger }) => passenger.type !== 'infant_without_seat');
  const groups = state.seatMaps.map((map) => {
    const segment = segments.get(map.segment_id);
    const title = segment ? `${segment.flight_number}: ${place(segment.origin)} to ${place(segment.destination)}` : `Flight ${map.segment_id}`;
    const seats = map.rows.flatMap((row) => row.seats.filter((seat) => seat.available));
    return h(
      'fieldset',
      {},
      h('legend', {}, title),
      seats.length === 0 ? h('p', {}, 'No seats can be chosen on this flight: the airline assigns them at check-in.') : null,
      ...(seats.length === 0
        ? []
        : seated.map(({ passenger, index }) => {
            const id = `seat-${map.segment_id}-${index}`.replace(/[^A-Za-z0-9_-]/g, '_');
            const current = state.choices.seats.find((seat) => seat.segment_id === map.segment_id && seat.passenger_id === passenger.id)?.seat_number || '';
            return field({
              id,
              label: `Seat for ${passengerName(index)}`,
              required: false,
              value: current,
              options: [['', 'No seat chosen: the airline assigns one at check-in'], ...seats.map((seat) => [seat.seat_number, `${seat.seat_number} ${seat.seat_type}, ${seat.price ? money(seat.price, state.offer.total_currency) : 'free'}`])],
            });
          })),
    );
  });
  const form = h(
    'form',
    { novalidate: true, onsubmit: (event) => (event.preventDefault(), submitSeats()) },
    h('p', {}, 'Choose seats now, or leave it to the airline at check-in. Prices are per seat.'),
    groups.length === 0 ? h('p', {}, 'This flight has no seat map: the airline assigns seats at check-in.') : null,
    ...groups,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Continue'), h('button', { type: 'button', onclick: previousOf('seats') }, 'Back')),
  );
  showStep('seats', STEP_NAMES.seats, alertBox(), form);
}

function submitSeats() {
  const seats = [];
  const problems = [];
  for (const map of state.seatMaps) {
    const taken = new Map();
    state.offer.passengers.forEach((passenger, index) => {
      const id = `seat-${map.segment_id}-${index}`.replace(/[^A-Za-z0-9_-]/g, '_');
      const value = valueOf(id);
      fieldError(id, '');
      if (!value) return;
      if (taken.has(value)) {
        fieldError(id, `Seat ${value} is already chosen for ${passengerName(taken.get(value))}.`);
        problems.push(id);
        return;
      }
      taken.set(value, index);
      seats.push({ segment_id: map.segment_id, passenger_id: passenger.id, seat_number: value });
    });
  }
  if (problems.length > 0) return document.getElementById(problems[0]).focus();
  state.choices.seats = seats;
  nextAfter('seats');
}

// ---- Bags -------------------------------------------------------------------------------------------

function showBags() {
  const passengersById = new Map(state.offer.passengers.map((passenger, index) => [passenger.id, index]));
  const form = h(
    'form',
    { novalidate: true, onsubmit: (event) => (event.preventDefault(), submitBags()) },
    h('p', {}, 'Add checked bags now, usually for less than at the airport.'),
    ...state.offer.bags.map((bag, number) => {
      const who = bag.passenger_ids.map((id) => passengersById.get(id)).filter((index) => index !== undefined);
      const current = state.choices.bags.find((item) => item.id === bag.id)?.quantity || 0;
      const quantities = Array.from({ length: bag.maximum_quantity + 1 }, (_, count) => [String(count), count === 0 ? 'None' : `${count} (${money(multiply(bag.total_amount, count), bag.total_currency)})`]);
      return field({
        id: `bag-${number}`,
        label: `${bag.name}${who.length > 0 ? ` for ${who.map(passengerName).join(' and ')}` : ''}`,
        hint: `${money(bag.total_amount, bag.total_currency)} each${bag.description ? `. ${bag.description}` : ''}`,
        value: String(current),
        required: false,
        options: quantities,
      });
    }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Continue'), h('button', { type: 'button', onclick: previousOf('bags') }, 'Back')),
  );
  showStep('bags', STEP_NAMES.bags, form);
}

/** A decimal string times a whole number, exactly (no floating point on money). */
function multiply(amount, count) {
  const [whole, fraction = ''] = amount.split('.');
  const units = BigInt(whole + fraction) * BigInt(count);
  const text = units.toString().padStart(fraction.length + 1, '0');
  return fraction.length ? `${text.slice(0, -fraction.length)}.${text.slice(-fraction.length)}` : text;
}

function submitBags() {
  state.choices.bags = state.offer.bags.map((bag, number) => ({ id: bag.id, quantity: Number(valueOf(`bag-${number}`) || 0) })).filter((bag) => bag.quantity > 0);
  nextAfter('bags');
}

// ---- The card: saved ones first, or a new one in the vault's fields nested here -------------------

const vault = { frame: undefined, origin: undefined, ready: false, pending: undefined };

window.addEventListener('message', (event) => {
  // Only the vault frame we made, from its exact origin: nothing else is listened to.
  if (!vault.frame || event.origin !== vault.origin || event.source !== vault.frame.contentWindow) return;
  const message = event.data || {};
  if (message.type === 'VAULT_READY') {
    vault.ready = true;
    const save = document.getElementById('save-card');
    if (save) save.disabled = false;
  } else if (message.type === 'VAULT_TOKEN_CREATED' && typeof message.token_id === 'string') {
    vault.pending?.resolve(message.token_id);
  } else if (message.type === 'VAULT_ERROR') {
    vault.pending?.reject(new Error(typeof message.message === 'string' ? message.message : 'Check the card details.'));
  }
});

function cardLabel(card) {
  const brands = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };
  return `${brands[card.brand] || card.brand} ending in ${card.last4}, expires ${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}`;
}

function showCard() {
  const cards = state.cards;
  const usable = cards.filter((card) => !state.declined.has(card.id));
  const chosen = usable.some((card) => card.id === state.choices.payment_method_id) ? state.choices.payment_method_id : usable.length > 0 ? usable[0].id : 'new';
  // A new render drops the vault's frame: a new one is opened when needed.
  vault.frame = undefined;
  vault.ready = false;
  const form = h(
    'form',
    { novalidate: true, onsubmit: (event) => (event.preventDefault(), submitCard(form.querySelector('button[type=submit]'))) },
    h(
      'fieldset',
      {},
      h('legend', {}, cards.length > 0 ? 'Pay with' : 'Your card'),
      ...cards.map((card) =>
        h(
          'div',
          { class: 'choice' },
          h('input', { type: 'radio', name: 'card', id: `card-${card.id}`, value: card.id, checked: chosen === card.id, onchange: toggleNewCard }),
          h('label', { for: `card-${card.id}` }, `${cardLabel(card)}${state.declined.has(card.id) ? ' (declined just now)' : ''}`),
        ),
      ),
      h(
        'div',
        { class: 'choice' },
        h('input', { type: 'radio', name: 'card', id: 'card-new', value: 'new', checked: chosen === 'new', onchange: toggleNewCard }),
        h('label', { for: 'card-new' }, 'A new card'),
      ),
      h('div', { id: 'new-card', hidden: chosen !== 'new' }, h('p', { class: 'hint' }, 'Card details go straight to our card vault: the site you are booking on never sees them.')),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'save-card' }, 'Continue'), h('button', { type: 'button', onclick: previousOf('card') }, 'Back')),
  );
  showStep('card', STEP_NAMES.card, alertBox(state.cardProblem), form);
  state.cardProblem = undefined;
  if (chosen === 'new') openVault();
}

function toggleNewCard() {
  const isNew = document.querySelector('input[name=card]:checked')?.value === 'new';
  document.getElementById('new-card').hidden = !isNew;
  if (isNew && !vault.frame) openVault();
  const save = document.getElementById('save-card');
  if (save) save.disabled = isNew && !vault.ready;
}

async function openVault() {
  const holder = document.getElementById('new-card');
  const save = document.getElementById('save-card');
  if (save) save.disabled = true;
  const { status, body } = await api('card-session', { method: 'POST', traveler: true });
  if (status !== 200) {
    setAlert(body.message || 'Cards cannot be added just now: try again in a moment.');
    return;
  }
  const url = new URL('/elements/card', body.vault_url);
  url.searchParams.set('session_key', body.session_key);
  vault.origin = url.origin;
  vault.ready = false;
  vault.frame = h('iframe', { src: url.href, title: 'Card details', class: 'vault' });
  holder.append(vault.frame);
}

function tokenize() {
  return new Promise((resolve, reject) => {
    vault.pending = { resolve, reject };
    vault.frame.contentWindow.postMessage({ type: 'VAULT_TOKENIZE' }, vault.origin);
  }).finally(() => {
    vault.pending = undefined;
  });
}

async function submitCard(button) {
  const chosen = document.querySelector('input[name=card]:checked')?.value;
  setAlert('');
  if (chosen && chosen !== 'new') {
    state.choices.payment_method_id = chosen;
    return showReview();
  }
  if (!vault.frame || !vault.ready) return setAlert('The card form is still loading: try again in a moment.');
  const done = busy(button, 'Saving the card…');
  try {
    const token = await tokenize();
    const { status, body } = await api('cards', { method: 'POST', body: { vault_token: token }, traveler: true });
    if (status !== 201) throw new Error(body.message || 'The card could not be saved: try another card.');
    state.cards = [body, ...state.cards.filter((card) => card.id !== body.id)];
    state.choices.payment_method_id = body.id;
    vault.frame = undefined;
    done();
    showReview();
  } catch (error) {
    done();
    setAlert(error.message);
  }
}

// ---- Review and pay ---------------------------------------------------------------------------------

async function showReview() {
  root.replaceChildren(h('p', { class: 'status', role: 'status' }, state.steps.pricing ? 'Checking the price with the airline…' : 'Working out your total…'));
  const { status, body } = await api('review', { method: 'POST', body: state.choices, traveler: true });
  if (status !== 200) return reviewProblem(status, body);
  state.review = body;
  const changedFlight = body.offer_total_amount !== state.shownOfferTotal;
  const changedTotal = state.acceptedTotal !== undefined && body.total_amount !== state.acceptedTotal;
  state.priceAccepted = !(changedFlight || changedTotal);
  const card = state.cards.find((item) => item.id === body.card.id);
  const seatsOf = (index) => state.choices.seats.filter((seat) => seat.passenger_id === state.offer.passengers[index].id).map((seat) => seat.seat_number);
  const notice = state.priceAccepted
    ? null
    : h(
        'div',
        { class: 'notice', role: 'alert', id: 'price-change' },
        h('p', {}, h('strong', {}, 'The price has changed. '), changedTotal ? `Your total was ${money(state.acceptedTotal, body.currency)}; it is now ${money(body.total_amount, body.currency)}.` : `The flight was ${money(state.shownOfferTotal, body.currency)}; it is now ${money(body.offer_total_amount, body.currency)}.`),
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', class: 'primary', onclick: acceptPrice }, `Accept the new price`),
          h('button', { type: 'button', onclick: searchAgain }, 'Search again'),
        ),
      );
  showStep(
    'review',
    STEP_NAMES.review,
    notice,
    alertBox(),
    h('h3', {}, 'Flight'),
    h('p', {}, state.offer.slices.map((slice) => `${place(slice.origin)} to ${place(slice.destination)}, ${when(slice.segments[0].departing_at)}`).join('; ')),
    h('h3', {}, 'Travelers'),
    h('ul', { class: 'plain' }, state.offer.passengers.map((_, index) => h('li', {}, [passengerName(index), seatsOf(index).length ? `seat ${seatsOf(index).join(', ')}` : ''].filter(Boolean).join(', ')))),
    h('h3', {}, 'Card'),
    h('p', {}, card ? cardLabel(card) : `Card ending in ${body.card.last4}`),
    h(
      'dl',
      { class: 'totals' },
      h('dt', {}, 'Flight'),
      h('dd', {}, money(body.offer_total_amount, body.currency)),
      body.seats_amount !== '0' && Number(body.seats_amount) !== 0 ? [h('dt', {}, 'Seats'), h('dd', {}, money(body.seats_amount, body.currency))] : null,
      Number(body.bags_amount) !== 0 ? [h('dt', {}, 'Bags'), h('dd', {}, money(body.bags_amount, body.currency))] : null,
      h('dt', { class: 'grand' }, 'Total to pay'),
      h('dd', { class: 'grand', id: 'total' }, money(body.total_amount, body.currency)),
    ),
    h('p', { class: 'status', role: 'status', id: 'pay-status' }),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'primary', id: 'pay', disabled: !state.priceAccepted, onclick: (event) => pay(event.currentTarget) }, `Pay ${money(body.total_amount, body.currency)}`),
      h('button', { type: 'button', onclick: previousOf('review') }, 'Back'),
    ),
  );
}

function acceptPrice() {
  state.priceAccepted = true;
  state.shownOfferTotal = state.review.offer_total_amount;
  state.acceptedTotal = state.review.total_amount;
  document.getElementById('price-change')?.remove();
  const button = document.getElementById('pay');
  button.disabled = false;
  button.focus();
}

async function searchAgain() {
  await api('abandon', { method: 'POST', body: { reason: 'search_again' }, traveler: true }).catch(() => undefined);
  sessionOver('search_again');
}

function reviewProblem(status, body) {
  if (status === 422 && body.code === 'offer_unavailable') return sessionOver('offer_unavailable');
  if (['payment_method_not_chargeable', 'payment_method_expired', 'payment_method_not_found', 'payment_method_required'].includes(body.code)) {
    state.cardProblem = body.code === 'payment_method_expired' ? 'This card has expired: choose another card.' : 'This card cannot be used here: choose another card or add a new one.';
    return showCard();
  }
  if (body.code === 'validation_error' && body.fields) {
    const names = Object.keys(body.fields);
    const passengerProblem = names.find((name) => name.startsWith('passengers'));
    // Priced again, the airline may ask for passports it did not ask for before.
    if (names.some((name) => name.includes('identity_documents'))) state.steps.documents = true;
    if (passengerProblem) {
      showPassengers();
      const index = Number(passengerProblem.split('.')[1] || 0);
      const id = fieldIdOf(index, passengerProblem);
      if (id) fieldError(id, body.fields[passengerProblem].message);
      return setAlert(`Check the details of ${passengerLabel(index)}: ${body.fields[passengerProblem].message}.`);
    }
    if (names.some((name) => name.startsWith('seat_selections')) && state.steps.seats) {
      state.seatMaps = undefined;
      return showSeats().then(() => setAlert('One of the seats is no longer available: choose again.'));
    }
  }
  root.replaceChildren(
    h('h2', { id: 'step-heading', tabindex: '-1' }, 'We could not work out the total'),
    h('p', { role: 'alert' }, body.message || 'Something went wrong: try again.'),
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: showReview }, 'Try again')),
  );
  document.getElementById('step-heading').focus();
}

async function pay(button) {
  if (!state.priceAccepted) return;
  state.acceptedTotal = state.review.total_amount;
  const done = busy(button, 'Booking…');
  document.getElementById('pay-status').textContent = 'Booking your flight and charging your card. This can take a minute: please keep this window open.';
  const body = { ...state.choices, expected_total: { amount: state.review.total_amount, currency: state.review.currency } };
  // While the booking is being placed, the embedding page asks before closing the frame.
  tell({ type: 'SVC_CHECKOUT_BUSY', busy: true });
  let answer;
  try {
    answer = await api('pay', { method: 'POST', body, traveler: true });
    // Still being completed (a pay of another tab, say): the same request reads its outcome, never books twice.
    for (let tries = 0; answer.status === 409 && answer.body.code === 'booking_in_progress' && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      answer = await api('pay', { method: 'POST', body, traveler: true });
    }
  } finally {
    tell({ type: 'SVC_CHECKOUT_BUSY', busy: false });
  }
  const { status, body: result } = answer;
  if (status === 200 && result.status === 'confirmed') return showDone(result);
  done();
  if (status === 402 || ['payment_method_not_chargeable', 'payment_method_expired'].includes(result.code)) {
    state.cardProblem =
      result.code === 'card_declined' || status === 402
        ? 'Your card was declined and nothing was charged. Choose another card or add a new one.'
        : 'This card cannot be used here: choose another card or add a new one.';
    if (status === 402 && state.choices.payment_method_id) state.declined.add(state.choices.payment_method_id);
    state.choices.payment_method_id = undefined;
    return showCard();
  }
  if (status === 409 && (result.code === 'price_changed' || result.code === 'total_changed')) return showReview();
  if (status === 422 && result.code === 'offer_unavailable') return sessionOver('offer_unavailable');
  if (status === 409 && result.code === 'checkout_session_closed') return start();
  document.getElementById('pay-status').textContent = '';
  setAlert(result.message ? `The booking did not go through: ${result.message}` : 'The booking did not go through: try again.');
}

// ---- The end ----------------------------------------------------------------------------------------

function showDone(booking) {
  state.finished = true;
  const heading = h('h2', { id: 'step-heading', tabindex: '-1' }, 'Your flight is booked');
  root.replaceChildren(
    h(
      'section',
      { 'aria-labelledby': 'step-heading', class: 'done' },
      heading,
      h('p', { class: 'success' }, 'Booking confirmed.'),
      h('p', {}, 'Your booking reference (PNR):'),
      h('p', { class: 'pnr', id: 'pnr' }, booking.airline_pnr || 'on its way'),
      h('p', { class: 'meta' }, `Booking ${booking.booking_id}`),
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: requestClose }, 'Close')),
    ),
  );
  heading.focus();
  tell({ type: 'SVC_BOOKING_COMPLETE', bookingId: booking.booking_id, airlineRef: booking.airline_pnr || '', providerId: booking.provider_id || state.summary.session.provider_id });
}

const ENDINGS = {
  offer_unavailable: ['This flight is no longer available', 'The airline can no longer sell this flight at this price. Nothing was charged. Search again for another flight.'],
  session_expired: ['This checkout has expired', 'Checkouts last 30 minutes. Nothing was charged. Start again from the flight you chose.'],
  search_again: ['Search again', 'Nothing was booked or charged. Choose another flight on the site you came from.'],
};

function sessionOver(reason) {
  if (state.finished) return;
  state.finished = true;
  const [title, text] = ENDINGS[reason];
  const heading = h('h2', { id: 'step-heading', tabindex: '-1' }, title);
  root.replaceChildren(h('section', { 'aria-labelledby': 'step-heading' }, heading, h('p', {}, text), h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: requestClose }, 'Close'))));
  heading.focus();
  tell({ type: 'SVC_BOOKING_FAILED', reason });
}

start().catch(() => {
  if (!state.finished && !root.querySelector('h2')) {
    root.replaceChildren(h('h2', {}, 'Something went wrong'), h('p', { role: 'alert' }, 'Reload the page to try again.'));
  }
});
