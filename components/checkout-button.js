/**
 * <checkout-button>: sells one flight offer on a partner's page through Travel Partner's hosted checkout,
 * opened in a modal dialog over the page (decisions §12). One ES module, no build step, no dependencies;
 * served by the service (BASE_URL) at /components/checkout-button.js.
 *
 *   <script type="module" src="https://api.example.com/components/checkout-button.js"></script>
 *   <checkout-button iata-code="BA" api-key="pk_live_…" provider-id="provider_b" flight-offer-id="…">
 *     Book this flight</checkout-button>
 *
 * Props (JS properties; the strings and booleans also as kebab-case attributes):
 * - iataCode (`iata-code`, required): 2 or 3 upper-case letters or digits, sent as `x-customer-id`.
 * - apiKey (`api-key`, required): a *publishable* key (`pk_test_…`, `pk_live_…`) listing this page's origin,
 *   sent as `x-api-key`. A secret key is refused here, before any request: it must never be in a page.
 * - providerID (`provider-id`, required): provider_a … provider_e.
 * - exactly one of flightOffer (a property: the provider's raw offer, which the button first hands to
 *   createProviderOffer) and flightOfferID (`flight-offer-id`: an offer id from createProviderOffer).
 * - isProd (`is-prod`): default false; it must match the service (sandbox or production).
 * - className (`class-name`): the CSS classes of the button, which is in the page's own DOM (the element's
 *   content is its label), so the page's stylesheet styles it. The element's own classes: `class`.
 * - bookingPath (`booking-path`): where the page's history entry points once the traveler booked; default
 *   `/checkout/bookings/{bookingId}` (`{bookingId}` and `{sessionId}` are filled in), on the page's origin.
 * - apiBase (`api-base`): the API; default the origin this module was loaded from.
 * - onExit({reason, sessionId, bookingId?, airlineRef?, providerId?}) (a property; also an `exit` event
 *   with that detail): `booking_confirmed`, `offer_unavailable` (sold out, expired, withdrawn, or the
 *   checkout session expired) or `search_again` (the traveler closed the checkout, or chose to search again).
 *   Confirm a sale on your backend with GET /v1/checkout/sessions/{sessionId} and your secret key: a
 *   page's messages prove nothing.
 * Problems (props, the API's refusals) are shown beside the button in words, logged to the console and
 * sent as a `checkout-button-error` event `{code, message}`; a refusal because the offer cannot be sold is
 * `onExit({reason: 'offer_unavailable'})` too.
 *
 * Each click opens a new checkout session (POST /v1/checkout/sessions), whose `url` (the client secret in
 * its fragment) is framed in a native <dialog>. Messages are accepted from that frame only: the exact
 * origin of `url` and the frame's own window; unknown or malformed ones are ignored. The button posts
 * nothing to any window. Messages: SVC_CHECKOUT_READY, SVC_CHECKOUT_CLOSE_REQUESTED,
 * SVC_BOOKING_COMPLETE {bookingId, airlineRef, providerId}, SVC_BOOKING_FAILED {reason}, and
 * SVC_CHECKOUT_BUSY {busy} (the booking is being placed: closing then asks first, whether by Escape, the
 * dialog's close control or SVC_CHECKOUT_CLOSE_REQUESTED).
 */

const MODULE_ORIGIN = new URL(import.meta.url).origin;
const PROVIDERS = ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'];
const DEFAULT_BOOKING_PATH = '/checkout/bookings/{bookingId}';
const DEFAULT_LABEL = 'Book this flight';
/** How long the checkout has to say it is ready before the dialog says it is slow (it stays open). */
const READY_TIMEOUT_MS = 20000;
/** The API's refusals that mean this offer cannot be sold now: the page should search again. */
const UNAVAILABLE = new Set(['offer_unavailable', 'offer_expired', 'offer_no_longer_available']);
const ATTRIBUTES = {
  'iata-code': 'iataCode',
  'api-key': 'apiKey',
  'provider-id': 'providerID',
  'flight-offer-id': 'flightOfferID',
  'is-prod': 'isProd',
  'class-name': 'className',
  'booking-path': 'bookingPath',
  'api-base': 'apiBase',
};
const PROPS = [...Object.values(ATTRIBUTES), 'flightOffer', 'onExit'];
const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

const STYLES = `
:host { display: inline-block; }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.status { margin: 0.35rem 0 0; font-size: 0.9rem; }
.status:empty { display: none; }
.error { margin: 0.35rem 0 0; max-width: 36rem; color: #b3261e; font-weight: 600; font-size: 0.9rem; }
[hidden] { display: none !important; }
dialog { color-scheme: light; padding: 0; border: 0; border-radius: 12px; background: #fff; color: #1b1b1f;
  width: min(46rem, calc(100vw - 2rem)); height: min(56rem, calc(100vh - 2rem)); height: min(56rem, calc(100dvh - 2rem));
  max-width: none; max-height: none; overflow: hidden; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
dialog[open] { display: flex; flex-direction: column; }
dialog::backdrop { background: rgb(0 0 0 / 0.55); }
.bar { flex: none; display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.4rem 0.5rem 0.4rem 1rem; border-bottom: 1px solid #d0d0d7; }
h2 { margin: 0; font-size: 1rem; font-weight: 600; }
button { font: inherit; min-height: 44px; min-width: 44px; padding: 0.4rem 0.9rem; border-radius: 8px; border: 1px solid #1f5fbf; background: #fff; color: #1f5fbf; cursor: pointer; }
button.primary { background: #1f5fbf; color: #fff; }
button:focus-visible { outline: 3px solid #1f5fbf; outline-offset: 2px; }
.body { position: relative; flex: 1; min-height: 0; display: flex; }
iframe { flex: 1; display: block; width: 100%; height: 100%; border: 0; }
.note { position: absolute; inset: 0 0 auto 0; margin: 0; padding: 1rem; background: #fff; text-align: center; }
.confirm { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 0.75rem; padding: 1.5rem; background: rgb(255 255 255 / 0.97); text-align: center; }
.confirm h3 { margin: 0; font-size: 1.1rem; }
.confirm p { margin: 0; max-width: 28rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: center; }
@media (max-width: 599.98px) {
  dialog { width: 100vw; height: 100vh; height: 100dvh; margin: 0; inset: 0; border-radius: 0; }
}
`;

let sharedSheet;
function adoptStyles(root) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    sharedSheet ??= new CSSStyleSheet();
    if (sharedSheet.cssRules.length === 0) sharedSheet.replaceSync(STYLES);
    root.adoptedStyleSheets = [sharedSheet];
  } else {
    root.append(h('style', {}, STYLES));
  }
}

/** A DOM element; text children are text nodes (never parsed as HTML). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined || value === null) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

class ApiError extends Error {
  constructor(status, code, message, requestId) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

const text = (value) => (typeof value === 'string' ? value.trim() : '');

/** Raw offers already handed to createProviderOffer, by object: a re-open reuses the offer id. */
const createdOffers = new WeakMap();

export class CheckoutButton extends HTMLElement {
  static get observedAttributes() {
    return Object.keys(ATTRIBUTES);
  }

  #props = {};
  #root;
  #status;
  #error;
  #button;
  #busy = false;
  /** The open checkout: its session, dialog, frame and what its end reports. */
  #checkout;
  #onMessage = (event) => this.#receive(event);

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    adoptStyles(this.#root);
    this.#status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite', part: 'status' });
    this.#error = h('p', { class: 'error', role: 'alert', part: 'error', hidden: true });
    this.#root.append(h('slot'), this.#status, this.#error);
  }

  // The props as accessors; `className` deliberately stands for the button's classes (the specification's prop).
  static {
    for (const name of PROPS) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get() {
          return this.#props[name];
        },
        set(value) {
          this.#set(name, value);
        },
      });
    }
  }

  connectedCallback() {
    // Properties a page set before this module defined the element are own properties hiding the accessors.
    for (const name of PROPS) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    this.#ensureButton();
  }

  disconnectedCallback() {
    // The page took the button away: the checkout goes with it, without telling onExit.
    if (this.#checkout) this.#end(this.#checkout, { notify: false });
  }

  attributeChangedCallback(name, _previous, value) {
    this.#set(ATTRIBUTES[name], value === null ? undefined : value);
  }

  #set(name, value) {
    if (value === undefined || value === null) delete this.#props[name];
    else this.#props[name] = value;
    if (name === 'className' && this.#button) this.#button.className = text(this.#props.className);
    // A fixed prop deserves a fresh try: the old complaint goes.
    if (name !== 'onExit') this.#clearError();
  }

  /** The button is in the page's DOM (so `className` styles it); the element's content is its label. */
  #ensureButton() {
    if (this.#button && this.#button.parentNode === this) return;
    const button = h('button', { type: 'button', 'aria-haspopup': 'dialog' });
    const label = [...this.childNodes].filter((node) => node.nodeType === 1 || text(node.textContent) !== '');
    for (const node of [...this.childNodes]) if (!label.includes(node)) node.remove();
    if (label.length > 0) button.append(...label);
    else button.textContent = DEFAULT_LABEL;
    button.className = text(this.#props.className);
    button.addEventListener('click', () => void this.#open());
    this.#button = button;
    this.append(button);
  }

  // ---- Props -------------------------------------------------------------------------------------------

  /** The props checked, or what is wrong with them, in words a developer acts on. */
  #config() {
    const p = this.#props;
    const apiKey = text(p.apiKey);
    if (!apiKey) return 'apiKey is required: your publishable key (pk_test_… on the sandbox, pk_live_… in production).';
    if (!/^pk_(test|live)_[A-Za-z0-9_-]+$/.test(apiKey)) {
      return 'apiKey must be a publishable key (pk_test_… or pk_live_…) listing this page’s origin. Never put a secret key in a web page.';
    }
    const iataCode = text(p.iataCode);
    if (!/^[A-Z0-9]{2,3}$/.test(iataCode)) return 'iataCode is required: 2 or 3 upper-case letters or digits, such as BA.';
    const providerID = text(p.providerID);
    if (!PROVIDERS.includes(providerID)) return `providerID must be one of ${PROVIDERS.join(', ')}.`;
    const offer = p.flightOffer;
    const offerId = text(p.flightOfferID);
    if (offer !== undefined && offerId) return 'Give exactly one of flightOffer (the provider’s offer) and flightOfferID (an offer id from createProviderOffer), not both.';
    if (offer === undefined && !offerId) return 'flightOffer (the provider’s offer) or flightOfferID (an offer id from createProviderOffer) is required.';
    if (offer !== undefined && (typeof offer !== 'object' || Array.isArray(offer))) return 'flightOffer must be the provider’s offer as an object, exactly as the provider gave it.';
    if (offerId && offerId.length > 200) return 'flightOfferID is too long: use the offer_id createProviderOffer returned.';
    const isProd = p.isProd === undefined || p.isProd === false || p.isProd === 'false' ? false : p.isProd === true || p.isProd === 'true' || p.isProd === '' ? true : undefined;
    if (isProd === undefined) return 'isProd must be true or false.';
    const bookingPath = p.bookingPath === undefined ? DEFAULT_BOOKING_PATH : String(p.bookingPath);
    if (!/^\/(?![/\\])/.test(bookingPath) || new URL(bookingPath, location.href).origin !== location.origin) {
      return 'bookingPath must be a path on this page’s own origin, such as /checkout/bookings/{bookingId}.';
    }
    let apiBase;
    try {
      apiBase = new URL(text(p.apiBase) || MODULE_ORIGIN);
    } catch {
      return 'apiBase must be the API’s absolute URL, such as https://api.example.com.';
    }
    if (apiBase.protocol !== 'https:' && apiBase.protocol !== 'http:') return 'apiBase must be an http(s) URL.';
    return { apiKey, iataCode, providerID, offer, offerId, isProd, bookingPath, apiBase: apiBase.href.replace(/\/+$/, '') };
  }

  // ---- Opening a checkout --------------------------------------------------------------------------------

  async #open() {
    if (this.#busy || this.#checkout) return;
    this.#clearError();
    const config = this.#config();
    if (typeof config === 'string') {
      this.#fail('invalid_props', `This button is not set up correctly: ${config}`);
      return;
    }
    this.#busy = true;
    this.#button?.setAttribute('aria-busy', 'true');
    this.#status.textContent = 'Opening the checkout…';
    try {
      const offerId = config.offer === undefined ? config.offerId : await this.#createOffer(config);
      const session = await this.#api(config, '/v1/checkout/sessions', { provider_id: config.providerID, offer_id: offerId, is_prod: config.isProd });
      if (!this.isConnected) return;
      this.#show(config, session);
    } catch (error) {
      if (config.offer !== undefined && error instanceof ApiError && (UNAVAILABLE.has(error.code) || error.code === 'offer_not_found')) createdOffers.delete(config.offer);
      this.#refused(error, config);
    } finally {
      this.#busy = false;
      this.#button?.removeAttribute('aria-busy');
      this.#status.textContent = '';
    }
  }

  /** createProviderOffer with the raw offer, once per offer object and provider. */
  async #createOffer(config) {
    const known = createdOffers.get(config.offer);
    if (known && known.providerID === config.providerID) return known.offerId;
    const created = await this.#api(config, `/v1/flights/providers/${encodeURIComponent(config.providerID)}/offers`, config.offer);
    if (!created || typeof created.offer_id !== 'string') throw new ApiError(502, 'unexpected_answer', 'The booking service answered in a way this button does not understand.');
    createdOffers.set(config.offer, { providerID: config.providerID, offerId: created.offer_id });
    return created.offer_id;
  }

  /** A POST to the API with the publishable key; no cookie goes (the key is the credential). */
  async #api(config, path, body) {
    let response;
    try {
      response = await fetch(`${config.apiBase}${path}`, {
        method: 'POST',
        mode: 'cors',
        credentials: 'omit',
        cache: 'no-store',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'x-api-key': config.apiKey, 'x-customer-id': config.iataCode },
        body: JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'network_error', '');
    }
    const data = await response.json().catch(() => undefined);
    if (!response.ok) throw new ApiError(response.status, data?.code ?? `http_${response.status}`, data?.message, data?.request_id ?? response.headers.get('x-request-id'));
    return data;
  }

  /** What a refusal tells the traveler (beside the button) and the developer (console, event). */
  #refused(error, config) {
    if (!(error instanceof ApiError)) {
      console.error('checkout-button:', error);
      this.#fail('error', 'The checkout could not open because of an error in this page. Reload the page and try again.', { logged: true });
      return;
    }
    if (UNAVAILABLE.has(error.code)) {
      // Not a fault of the page: onExit tells it, and the console stays for what a developer must fix.
      this.#fail(error.code, 'This offer is no longer available: it sold out or expired. Search again for another flight.', { logged: true });
      this.#exit({ reason: 'offer_unavailable' });
      return;
    }
    if (error.status === 0) {
      // A key or origin the service refuses gets no CORS headers: to this page it looks like no answer at all.
      console.error(`checkout-button: network_error: no readable answer from ${config.apiBase}. If the network is fine, check that apiKey is a publishable key of this service listing this page's origin (${location.origin}).`);
      this.#fail('network_error', 'The checkout could not open: the booking service did not answer, or does not accept this page. Check your internet connection, then try again; if it keeps failing, tell this site’s support.', { logged: true });
      return;
    }
    const message =
      error.status === 429
        ? 'The checkout could not open: too many requests just now. Wait a moment, then try again.'
        : error.status >= 500
          ? 'The checkout could not open: something went wrong on our side. Try again in a moment.'
          : `The checkout could not open: ${error.message.replace(/\.?$/, '.')}`;
    this.#fail(error.code, message, { requestId: error.requestId });
  }

  #fail(code, message, { requestId, logged = false } = {}) {
    this.#error.textContent = message;
    this.#error.hidden = false;
    if (!logged) console.error(`checkout-button: ${code}: ${message}${requestId ? ` (request id ${requestId})` : ''}`);
    this.dispatchEvent(new CustomEvent('checkout-button-error', { bubbles: true, composed: true, detail: { code, message } }));
  }

  #clearError() {
    if (!this.#error) return;
    this.#error.hidden = true;
    this.#error.textContent = '';
  }

  // ---- The dialog -----------------------------------------------------------------------------------------

  #show(config, session) {
    let url;
    try {
      url = new URL(session?.url);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || typeof session.id !== 'string') {
      throw new ApiError(502, 'unexpected_answer', 'The booking service answered in a way this button does not understand.');
    }
    const checkout = { sessionId: session.id, origin: url.origin, config, ready: false, busy: false, done: false, exit: { reason: 'search_again' } };
    checkout.frame = h('iframe', { title: 'Checkout', src: url.href, allow: 'payment' });
    checkout.note = h('p', { class: 'note', role: 'status' }, 'Loading the checkout…');
    checkout.keep = h('button', { type: 'button', class: 'primary', onclick: () => this.#confirmClose(checkout, false) }, 'Keep waiting');
    checkout.confirm = h(
      'div',
      { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text', hidden: true },
      h('h3', { id: 'confirm-title' }, 'Your booking is being placed'),
      h('p', { id: 'confirm-text' }, 'If you close the checkout now, the booking may still go through: you would get its confirmation by e-mail. Close anyway?'),
      h('div', { class: 'actions' }, checkout.keep, h('button', { type: 'button', onclick: () => checkout.dialog.close() }, 'Close anyway')),
    );
    checkout.close = h('button', { type: 'button', class: 'close', 'aria-label': 'Close the checkout', onclick: () => this.#requestClose(checkout) }, 'Close');
    checkout.dialog = h(
      'dialog',
      { 'aria-labelledby': 'checkout-title', part: 'dialog' },
      h('div', { class: 'bar' }, h('h2', { id: 'checkout-title' }, 'Checkout'), checkout.close),
      h('div', { class: 'body' }, checkout.frame, checkout.note, checkout.confirm),
    );
    // Escape: closes, unless the booking is being placed: then it asks, as the close control does (and
    // Escape again keeps waiting).
    checkout.dialog.addEventListener('cancel', (event) => {
      if (!checkout.busy) return;
      event.preventDefault();
      this.#confirmClose(checkout, checkout.confirm.hidden);
    });
    checkout.dialog.addEventListener('close', () => this.#end(checkout, { notify: true }));
    this.#checkout = checkout;
    window.addEventListener('message', this.#onMessage);
    this.#root.append(checkout.dialog);
    checkout.dialog.showModal();
    checkout.close.focus();
    checkout.timer = setTimeout(() => {
      if (!checkout.ready) checkout.note.textContent = 'The checkout is taking longer than usual to load. Check your internet connection; you can close it and try again.';
    }, READY_TIMEOUT_MS);
  }

  #requestClose(checkout) {
    if (checkout.busy) this.#confirmClose(checkout, true);
    else checkout.dialog.close();
  }

  #confirmClose(checkout, open) {
    checkout.confirm.hidden = !open;
    // While the question is asked, the checkout behind it is out of reach (keyboard and pointer).
    checkout.frame.inert = open;
    if (open) checkout.keep.focus();
    else checkout.close.focus();
  }

  /** The dialog closed (or the element left the page): everything of this checkout goes, once. */
  #end(checkout, { notify }) {
    if (this.#checkout !== checkout) return;
    this.#checkout = undefined;
    window.removeEventListener('message', this.#onMessage);
    clearTimeout(checkout.timer);
    if (checkout.dialog.open) checkout.dialog.close();
    checkout.dialog.remove();
    if (!notify) return;
    if (this.#button?.isConnected) this.#button.focus();
    this.#exit({ ...checkout.exit, sessionId: checkout.sessionId });
  }

  #exit(detail) {
    const callback = this.#props.onExit;
    if (typeof callback === 'function') {
      try {
        callback(detail);
      } catch (error) {
        // A page's handler that throws must not break the button.
        console.error('checkout-button: onExit threw', error);
      }
    }
    this.dispatchEvent(new CustomEvent('exit', { bubbles: true, composed: true, detail }));
  }

  // ---- Messages from the checkout frame -------------------------------------------------------------------

  /** Only the checkout's origin and its frame's window are heard; anything unknown or malformed is ignored. */
  #receive(event) {
    const checkout = this.#checkout;
    if (!checkout || checkout.done || event.origin !== checkout.origin || event.source !== checkout.frame.contentWindow) return;
    const message = event.data;
    if (typeof message !== 'object' || message === null || typeof message.type !== 'string') return;
    switch (message.type) {
      case 'SVC_CHECKOUT_READY':
        checkout.ready = true;
        clearTimeout(checkout.timer);
        checkout.note.hidden = true;
        // Into the checkout, where its first step's heading waits, unless the traveler moved on already.
        if (this.#root.activeElement === checkout.close) checkout.frame.focus();
        break;
      case 'SVC_CHECKOUT_BUSY':
        if (typeof message.busy !== 'boolean') return;
        checkout.busy = message.busy;
        if (!message.busy && !checkout.confirm.hidden) this.#confirmClose(checkout, false);
        break;
      case 'SVC_CHECKOUT_CLOSE_REQUESTED':
        // The traveler pressed close or Escape inside the frame: as our own close control (it asks while busy).
        this.#requestClose(checkout);
        break;
      case 'SVC_BOOKING_COMPLETE':
        this.#completed(checkout, message);
        break;
      case 'SVC_BOOKING_FAILED':
        if (message.reason === 'offer_unavailable' || message.reason === 'session_expired') this.#finish(checkout, { reason: 'offer_unavailable' });
        else if (message.reason === 'search_again') this.#finish(checkout, { reason: 'search_again' });
        break;
    }
  }

  #completed(checkout, message) {
    const { bookingId, airlineRef, providerId } = message;
    if (typeof bookingId !== 'string' || !ID_PATTERN.test(bookingId)) return;
    if (providerId !== checkout.config.providerID) return;
    if (airlineRef !== null && (typeof airlineRef !== 'string' || airlineRef.length > 100)) return;
    const path = checkout.config.bookingPath.replaceAll('{bookingId}', encodeURIComponent(bookingId)).replaceAll('{sessionId}', encodeURIComponent(checkout.sessionId));
    try {
      // The page now stands for the booking: Back does not lead to a checkout that is over.
      window.history.replaceState(window.history.state, '', new URL(path, location.href).href);
    } catch (error) {
      console.error('checkout-button: the booking path could not replace the history entry', error);
    }
    this.#finish(checkout, { reason: 'booking_confirmed', bookingId, airlineRef, providerId });
  }

  #finish(checkout, exit) {
    checkout.done = true;
    checkout.exit = exit;
    checkout.dialog.close();
  }
}

if (!customElements.get('checkout-button')) customElements.define('checkout-button', CheckoutButton);
