/**
 * <card-capture user-id="me">: the traveler's saved cards on a partner's page. One ES module, no build
 * step, no dependencies; served by the service at /components/card-capture.js.
 *
 *   <script type="module" src="https://api.example.com/components/card-capture.js"></script>
 *   <card-capture user-id="me"></card-capture>
 *
 * Attributes: `user-id` (required; `me` is the signed-in traveler), `api-base` (default: the origin this
 * module was loaded from). It calls the payment-method routes with the traveler's own session cookie
 * (`credentials: 'include'`) and the CSRF token the tokenization session gives; new cards are typed into
 * the card vault's hosted fields (an iframe of the vault's origin), so card numbers never pass through
 * this script, the page or the service.
 *
 * For the page: `element.selectedPaymentMethodId` and a `change` event when it changes; `element.onEvent`
 * (and a `card-capture` event) with `{action, properties}` for `autoselected`, `selected`, `added`,
 * `edited`, `deleted` and `set_default`, whose properties are counts, booleans and field names only, never
 * card data; `element.onError` (and a `card-capture-error` event) with `{code, message}` for what went wrong.
 */

const MODULE_ORIGIN = new URL(import.meta.url).origin;
/** Changes to a card are saved this long after the traveler's last keystroke (specification, Limits). */
export const AUTO_SAVE_DELAY_MS = 1200;
/** How long the vault's frame has to say it is ready. */
const FRAME_READY_TIMEOUT_MS = 10000;

const BRANDS = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };
const METHOD_TYPES = { apple_pay: 'Apple Pay', google_pay: 'Google Pay', pay_later: 'Pay later' };

const STYLES = `
:host { display: block; font: inherit; color: inherit; --card-capture-accent: #1f5fbf; --card-capture-error: #b3261e; --card-capture-ok: #1e7b34; }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
fieldset { border: 0; padding: 0; margin: 0.5rem 0; }
legend { font-weight: 600; padding: 0; margin-bottom: 0.25rem; }
.card { display: flex; gap: 0.6rem; align-items: center; padding: 0.5rem 0.6rem; margin: 0.25rem 0; border: 1px solid color-mix(in srgb, currentColor 25%, transparent); border-radius: 6px; cursor: pointer; }
.card:has(input:checked) { border-color: var(--card-capture-accent); border-width: 2px; }
.badge { font-size: 0.8rem; padding: 0 0.4rem; border-radius: 4px; border: 1px solid currentColor; }
label.field { display: block; font-weight: 600; margin: 0.6rem 0 0.2rem; }
input[type=text] { width: 100%; max-width: 20rem; padding: 0.5rem; font: inherit; border: 1px solid color-mix(in srgb, currentColor 40%, transparent); border-radius: 6px; }
input[aria-invalid=true] { border: 2px solid var(--card-capture-error); }
input:focus-visible, button:focus-visible { outline: 3px solid var(--card-capture-accent); outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.75rem 0; }
button { padding: 0.45rem 1rem; font: inherit; border-radius: 6px; border: 1px solid var(--card-capture-accent); background: transparent; color: inherit; cursor: pointer; }
button.primary { background: var(--card-capture-accent); color: white; }
button:disabled { opacity: 0.5; cursor: default; }
iframe { display: block; width: 100%; max-width: 26rem; height: 15rem; border: 0; }
.error { color: var(--card-capture-error); font-weight: 600; }
.status { color: var(--card-capture-ok); min-height: 1.5em; }
.field-error { color: var(--card-capture-error); margin: 0.2rem 0 0; font-size: 0.9rem; }
.hint { opacity: 0.75; font-size: 0.9rem; margin: 0.2rem 0 0; }
[hidden] { display: none !important; }
`;

/** One stylesheet for every instance, adopted: no <style> element, so a page's strict style-src allows it. */
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

/** A DOM element; text children are text nodes (never parsed as HTML), so card data cannot inject markup. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined || value === null) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.flat().filter((child) => child !== undefined && child !== null && child !== false));
  return element;
}

class ApiError extends Error {
  constructor(status, code, message, fields) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/**
 * What people type for an expiry, as month and four-digit year: `12/30`, `12 / 30`, `1/30`, `12-30`,
 * `1230`, `12/2030`, `122030`; undefined when it is not one.
 */
function parseExpiry(value) {
  const match = /^\s*(\d{1,2})\s*[/\-. ]\s*(\d{2}|\d{4})\s*$/.exec(value) ?? /^\s*(\d{2})(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : undefined;
}

const twoDigits = (number) => String(number).padStart(2, '0');
const expiryText = (card) => `${twoDigits(card.expMonth)}/${twoDigits(card.expYear % 100)}`;

function describeCard(card) {
  const name = card.methodType && card.methodType !== 'credit_card' ? METHOD_TYPES[card.methodType] ?? card.methodType : BRANDS[card.brand] ?? 'Card';
  return `${name} ending in ${card.last4}`;
}

export class CardCapture extends HTMLElement {
  static observedAttributes = ['user-id', 'api-base'];

  /** Called with `{action, properties}` after each success (properties never hold card data). */
  onEvent = null;
  /** Called with `{code, message}` when something fails (the message is the one the traveler sees). */
  onError = null;

  #root;
  #ui;
  #loaded = false;
  #csrfToken = '';
  #cards = [];
  #selectedId = null;
  /** Card ids that turned out to be legacy rows (no cardholder name or ZIP on them). */
  #legacy = new Set();
  #dirty = new Set();
  #timer;
  #saving = Promise.resolve();
  #vault;
  #frameTimer;
  #onMessage = (event) => this.#vaultMessage(event);

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    adoptStyles(this.#root);
    this.#ui = this.#build();
    this.#root.append(this.#ui.section);
  }

  /** The id of the card the traveler chose, or null: what the page passes on as `payment_method_id`. */
  get selectedPaymentMethodId() {
    return this.#selectedId;
  }

  connectedCallback() {
    window.addEventListener('message', this.#onMessage);
    if (!this.#loaded) void this.#load();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
    // Changes still waiting for their debounce are saved now rather than lost.
    if (this.#timer) this.#flush();
  }

  attributeChangedCallback(_name, previous, current) {
    if (this.#loaded && previous !== current) void this.#load();
  }

  get #apiBase() {
    return (this.getAttribute('api-base') || MODULE_ORIGIN).replace(/\/+$/, '');
  }

  get #userPath() {
    return `/v1/users/${encodeURIComponent(this.getAttribute('user-id') ?? '')}/payment-methods`;
  }

  // ---- The interface -------------------------------------------------------------------------------

  #build() {
    const ui = {};
    ui.status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    ui.error = h('p', { class: 'error', role: 'alert', hidden: true });
    ui.retry = h('button', { type: 'button', hidden: true, onclick: () => this.#load() }, 'Try again');
    ui.list = h('div', { class: 'cards' });
    ui.empty = h('p', { hidden: true }, 'You have no saved cards yet. Add one below.');
    ui.cards = h('fieldset', { hidden: true }, h('legend', {}, 'Saved cards'), ui.list);

    ui.expiry = h('input', { type: 'text', id: 'expiry', name: 'expiry', inputmode: 'numeric', autocomplete: 'cc-exp', placeholder: 'MM/YY', maxlength: 9, 'aria-describedby': 'expiry-error' });
    ui.name = h('input', { type: 'text', id: 'cardholder-name', name: 'cardholderName', autocomplete: 'cc-name', maxlength: 100, 'aria-describedby': 'cardholder-name-hint cardholder-name-error' });
    ui.zip = h('input', { type: 'text', id: 'zip', name: 'zip', autocomplete: 'postal-code', maxlength: 10, 'aria-describedby': 'zip-hint zip-error' });
    const fieldError = (id) => h('p', { class: 'field-error', id, 'aria-live': 'polite' });
    ui.fieldErrors = { expiry: fieldError('expiry-error'), cardholderName: fieldError('cardholder-name-error'), zip: fieldError('zip-error') };
    for (const input of [ui.expiry, ui.name, ui.zip]) input.addEventListener('input', () => this.#edited(input));
    ui.setDefault = h('button', { type: 'button', onclick: () => this.#makeDefault() }, 'Set as default');
    ui.remove = h('button', { type: 'button', onclick: () => this.#confirmDelete(true) }, 'Delete card');
    ui.confirmText = h('p', {});
    ui.confirm = h(
      'div',
      { hidden: true, role: 'group', 'aria-label': 'Confirm deletion' },
      ui.confirmText,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: () => this.#delete() }, 'Yes, delete it'), h('button', { type: 'button', onclick: () => this.#confirmDelete(false) }, 'Keep it')),
    );
    ui.editTitle = h('h3', { id: 'edit-title' }, 'Card details');
    ui.edit = h(
      'section',
      { hidden: true, 'aria-labelledby': 'edit-title' },
      ui.editTitle,
      h('p', { class: 'hint' }, 'Changes are saved as you type.'),
      h('label', { class: 'field', for: 'expiry' }, 'Expiry date (MM/YY)'),
      ui.expiry,
      ui.fieldErrors.expiry,
      h('label', { class: 'field', for: 'cardholder-name' }, 'Name on card'),
      h('p', { class: 'hint', id: 'cardholder-name-hint' }, 'Leave empty to keep the name you saved before.'),
      ui.name,
      ui.fieldErrors.cardholderName,
      h('label', { class: 'field', for: 'zip' }, 'Billing ZIP code'),
      h('p', { class: 'hint', id: 'zip-hint' }, 'Leave empty to keep the ZIP code you saved before.'),
      ui.zip,
      ui.fieldErrors.zip,
      h('div', { class: 'actions' }, ui.setDefault, ui.remove),
      ui.confirm,
    );

    ui.addButton = h('button', { type: 'button', onclick: () => this.#openAdd() }, 'Add a card');
    ui.frameSlot = h('div', {});
    ui.makeDefault = h('input', { type: 'checkbox', id: 'make-default' });
    ui.save = h('button', { type: 'button', class: 'primary', disabled: true, onclick: () => this.#tokenize() }, 'Save card');
    ui.add = h(
      'section',
      { hidden: true, 'aria-labelledby': 'add-title' },
      h('h3', { id: 'add-title' }, 'Add a card'),
      h('p', { class: 'hint' }, 'Your card number goes straight to our secure card vault.'),
      ui.frameSlot,
      h('p', {}, ui.makeDefault, ' ', h('label', { for: 'make-default' }, 'Use as my default card')),
      h('div', { class: 'actions' }, ui.save, h('button', { type: 'button', onclick: () => this.#closeAdd() }, 'Cancel')),
    );
    ui.section = h('section', { 'aria-labelledby': 'title' }, h('h2', { id: 'title' }, 'Payment card'), ui.status, ui.error, ui.retry, ui.empty, ui.cards, ui.edit, h('div', { class: 'actions' }, ui.addButton), ui.add);
    return ui;
  }

  #renderList() {
    const ui = this.#ui;
    ui.empty.hidden = !this.#loaded || this.#cards.length > 0;
    ui.cards.hidden = this.#cards.length === 0;
    ui.list.replaceChildren(
      ...this.#cards.map((card) =>
        h(
          'label',
          { class: 'card' },
          h('input', { type: 'radio', name: 'card', value: card.id, checked: card.id === this.#selectedId, onchange: () => this.#select(card.id) }),
          h('span', {}, `${describeCard(card)}, expires ${expiryText(card)}`),
          card.isDefault ? h('span', { class: 'badge' }, 'Default') : undefined,
        ),
      ),
    );
    const card = this.#selected();
    ui.edit.hidden = !card;
    if (card) {
      ui.editTitle.textContent = `Details of your ${describeCard(card)}`;
      ui.setDefault.hidden = card.isDefault;
      if (!this.#dirty.has('expiry')) ui.expiry.value = expiryText(card);
      const legacy = this.#legacy.has(card.id);
      ui.name.disabled = legacy;
      ui.zip.disabled = legacy;
    }
  }

  #say(message) {
    this.#ui.status.textContent = message;
  }

  /** Shows what went wrong and what to do, and tells the page (`onError`). */
  #fail(code, message, { retry = false } = {}) {
    this.#ui.error.textContent = message;
    this.#ui.error.hidden = false;
    this.#ui.retry.hidden = !retry;
    this.#say('');
    this.#callback('onError', 'card-capture-error', { code, message });
  }

  #clearError() {
    this.#ui.error.hidden = true;
    this.#ui.error.textContent = '';
    this.#ui.retry.hidden = true;
  }

  #showFieldErrors(errors) {
    for (const [field, node] of Object.entries(this.#ui.fieldErrors)) {
      const message = errors[field] ?? '';
      node.textContent = message;
      const input = field === 'expiry' ? this.#ui.expiry : field === 'zip' ? this.#ui.zip : this.#ui.name;
      input.setAttribute('aria-invalid', message ? 'true' : 'false');
    }
  }

  // ---- Telling the page ----------------------------------------------------------------------------

  #callback(property, eventName, detail) {
    try {
      if (typeof this[property] === 'function') this[property](detail);
    } catch (error) {
      // A page's handler that throws must not break the component.
      console.error(error);
    }
    this.dispatchEvent(new CustomEvent(eventName, { detail, bubbles: true, composed: true }));
  }

  /** `properties`: counts, booleans and field names only (the specification's rule for these events). */
  #emit(action, properties) {
    this.#callback('onEvent', 'card-capture', { action, properties });
  }

  #setSelected(id) {
    if (this.#selectedId === id) return false;
    if (this.#timer) this.#flush();
    this.#selectedId = id;
    this.#dirty.clear();
    this.#ui.name.value = '';
    this.#ui.zip.value = '';
    this.#showFieldErrors({});
    this.#confirmDelete(false);
    this.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  }

  #selected() {
    return this.#cards.find((card) => card.id === this.#selectedId);
  }

  // ---- Talking to the API --------------------------------------------------------------------------

  async #api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = this.#csrfToken;
    let response;
    try {
      response = await fetch(`${this.#apiBase}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'include',
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'network_error', '');
    }
    if (response.status === 204) return undefined;
    const data = await response.json().catch(() => undefined);
    if (!response.ok) throw new ApiError(response.status, data?.code ?? `http_${response.status}`, data?.message, data?.fields);
    return data;
  }

  /** What the traveler reads when `doing` failed: what went wrong and what to do about it. */
  #explain(error, doing) {
    if (!(error instanceof ApiError)) return `We couldn't ${doing} because of an error in this page. Reload the page and try again.`;
    if (error.status === 0) {
      return `We couldn't ${doing}: the card service didn't answer, or it does not accept this page. Check your internet connection, then try again; if it keeps failing, tell the site's support.`;
    }
    if (error.status === 401) return `We couldn't ${doing} because you're not signed in, or your sign-in has expired. Sign in again, then reload this page.`;
    if (error.code === 'csrf_token_invalid') return `We couldn't ${doing} because your sign-in changed in another tab. Reload this page and try again.`;
    if (error.status === 403) return `We couldn't ${doing}: these cards belong to another account. Sign in with your own account and try again.`;
    if (error.status === 404) return `We couldn't ${doing}: that card no longer exists. The list has been refreshed; choose a card again.`;
    if (error.code === 'legacy_payment_method') {
      return 'This card was saved before names and billing ZIP codes were kept, so they can’t be changed on it. To change them, add the card again and delete this one.';
    }
    if (error.status === 400 || error.status === 409 || error.status === 422) {
      return `We couldn't ${doing}: ${error.message.replace(/\.?$/, '.')} Correct it and try again.`;
    }
    if (error.status === 429) return `We couldn't ${doing}: too many requests just now. Wait a minute, then try again.`;
    return `We couldn't ${doing}: something went wrong on our side. Try again in a moment.`;
  }

  async #session() {
    const session = await this.#api('GET', `/v1/payments/tokenization-session?origin=${encodeURIComponent(location.origin)}`);
    this.#csrfToken = session.csrfToken;
    return session;
  }

  async #load() {
    this.#clearError();
    if (!this.getAttribute('user-id')) {
      this.#fail('missing_user_id', 'This card form is not set up: the page must give it a user-id attribute (user-id="me" for the signed-in traveler).');
      return;
    }
    this.#say('Loading your cards…');
    try {
      await this.#session();
      await this.#refresh();
      this.#say('');
    } catch (error) {
      this.#fail(error.code ?? 'error', this.#explain(error, 'load your saved cards'), { retry: error.status === 0 || error.status >= 500 });
    }
  }

  /** Reloads the list; picks the default card (or the only one) when none is selected. */
  async #refresh() {
    this.#cards = await this.#api('GET', this.#userPath);
    this.#loaded = true;
    if (this.#selectedId && !this.#selected()) this.#setSelected(null);
    let autoselected = false;
    if (!this.#selectedId) {
      const pick = this.#cards.find((card) => card.isDefault) ?? (this.#cards.length === 1 ? this.#cards[0] : undefined);
      if (pick) autoselected = this.#setSelected(pick.id);
    }
    this.#renderList();
    if (autoselected) this.#emit('autoselected', { cardCount: this.#cards.length, isDefault: Boolean(this.#selected()?.isDefault) });
  }

  #select(id) {
    if (!this.#setSelected(id)) return;
    this.#clearError();
    this.#say('');
    this.#renderList();
    this.#emit('selected', { cardCount: this.#cards.length, isDefault: Boolean(this.#selected()?.isDefault) });
  }

  // ---- Editing the selected card (auto-saved) --------------------------------------------------------

  #edited(input) {
    this.#dirty.add(input === this.#ui.expiry ? 'expiry' : input.name);
    this.#ui.fieldErrors[input === this.#ui.expiry ? 'expiry' : input.name].textContent = '';
    input.setAttribute('aria-invalid', 'false');
    this.#say('');
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#flush(), AUTO_SAVE_DELAY_MS);
  }

  /** Saves what changed now (one save at a time: a later one waits for the one in flight). */
  #flush() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const card = this.#selected();
    if (!card) return;
    const changes = this.#changes(card);
    if (Object.keys(changes).length === 0) return;
    this.#saving = this.#saving.then(() => this.#save(card, changes));
  }

  /** The keys the traveler changed and that are valid, with their values; shows what is not valid. */
  #changes(card) {
    const changes = {};
    const errors = {};
    if (this.#dirty.has('expiry')) {
      const expiry = parseExpiry(this.#ui.expiry.value);
      if (!expiry) errors.expiry = 'Enter the expiry date as MM/YY, for example 04/29.';
      else if (expiry.year < 2024 || expiry.year > 2050) errors.expiry = 'Enter an expiry year between 2024 and 2050.';
      else {
        if (expiry.month !== card.expMonth) changes.expMonth = expiry.month;
        if (expiry.year !== card.expYear) changes.expYear = expiry.year;
        this.#dirty.delete('expiry');
      }
    }
    for (const [key, input] of [['cardholderName', this.#ui.name], ['zip', this.#ui.zip]]) {
      if (!this.#dirty.has(key)) continue;
      const value = input.value.trim();
      this.#dirty.delete(key);
      if (value === '') continue;
      if (key === 'zip' && !/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(value)) {
        errors.zip = 'Enter the billing ZIP code as it appears on your statement, for example 94107.';
        this.#dirty.add(key);
        continue;
      }
      changes[key] = value;
    }
    this.#showFieldErrors(errors);
    return changes;
  }

  async #save(card, changes) {
    this.#say('Saving…');
    const fields = Object.keys(changes);
    try {
      const updated = await this.#api('PUT', `${this.#userPath}/${encodeURIComponent(card.id)}`, changes);
      this.#replace(updated);
      this.#clearError();
      this.#say('Saved');
      this.#emit('edited', { fields });
    } catch (error) {
      if (error.code === 'legacy_payment_method') {
        this.#legacy.add(card.id);
        this.#renderList();
        this.#fail(error.code, this.#explain(error, 'save your changes'));
        // The expiry may have gone with the name or ZIP code: it can still be saved alone.
        const rest = Object.fromEntries(Object.entries(changes).filter(([key]) => key === 'expMonth' || key === 'expYear'));
        if (Object.keys(rest).length > 0) await this.#save(card, rest);
        return;
      }
      if (error.status === 400 && error.fields) {
        const byField = {};
        for (const [key, detail] of Object.entries(error.fields)) {
          const field = key === 'expMonth' || key === 'expYear' ? 'expiry' : key;
          byField[field] ??= typeof detail === 'object' && detail ? detail.message : String(detail);
        }
        this.#showFieldErrors(byField);
      }
      this.#fail(error.code ?? 'error', this.#explain(error, 'save your changes'));
      if (error.status === 404) await this.#refresh().catch(() => undefined);
    }
  }

  #replace(updated) {
    if (!updated || !updated.id) return;
    this.#cards = this.#cards.map((card) => (card.id === updated.id ? { ...card, ...updated } : card));
    this.#renderList();
  }

  async #makeDefault() {
    const card = this.#selected();
    if (!card) return;
    this.#say('Saving…');
    try {
      await this.#api('PUT', `${this.#userPath}/${encodeURIComponent(card.id)}`, { isDefault: true });
      await this.#refresh();
      this.#clearError();
      this.#say('This card is now your default.');
      this.#emit('set_default', { cardCount: this.#cards.length });
    } catch (error) {
      this.#fail(error.code ?? 'error', this.#explain(error, 'make this card your default'));
      if (error.status === 404) await this.#refresh().catch(() => undefined);
    }
  }

  #confirmDelete(open) {
    const card = this.#selected();
    this.#ui.confirm.hidden = !open || !card;
    if (open && card) {
      this.#ui.confirmText.textContent = `Delete your ${describeCard(card)}? You can add it again later.`;
      this.#ui.confirm.querySelector('button')?.focus();
    }
  }

  async #delete() {
    const card = this.#selected();
    if (!card) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#say('Deleting…');
    try {
      await this.#api('DELETE', `${this.#userPath}/${encodeURIComponent(card.id)}`);
      this.#setSelected(null);
      await this.#refresh();
      this.#clearError();
      this.#say('The card was deleted.');
      this.#emit('deleted', { cardCount: this.#cards.length, wasDefault: Boolean(card.isDefault) });
    } catch (error) {
      this.#fail(error.code ?? 'error', this.#explain(error, 'delete the card'));
      if (error.status === 404) await this.#refresh().catch(() => undefined);
    }
  }

  // ---- Adding a card through the vault's hosted fields -------------------------------------------------

  async #openAdd() {
    const ui = this.#ui;
    this.#clearError();
    ui.addButton.disabled = true;
    try {
      // A fresh session each time: its key lives ten minutes and the form may be opened much later.
      const session = await this.#session();
      const vaultUrl = session.vaultUrl.replace(/\/+$/, '');
      const frame = h('iframe', {
        title: 'Card number, expiry date and security code',
        src: `${vaultUrl}/elements/card?session_key=${encodeURIComponent(session.sessionKey)}`,
        referrerpolicy: 'no-referrer',
      });
      this.#vault = { origin: new URL(vaultUrl).origin, frame, ready: false, busy: false };
      ui.frameSlot.replaceChildren(frame);
      ui.save.disabled = true;
      ui.makeDefault.checked = this.#cards.length === 0;
      ui.add.hidden = false;
      ui.addButton.hidden = true;
      this.#say('Loading the card form…');
      clearTimeout(this.#frameTimer);
      this.#frameTimer = setTimeout(() => {
        if (this.#vault && !this.#vault.ready) this.#fail('frame_timeout', 'The card form didn’t load. Check your internet connection, then close it and try again.');
      }, FRAME_READY_TIMEOUT_MS);
    } catch (error) {
      this.#fail(error.code ?? 'error', this.#explain(error, 'open the card form'));
    } finally {
      ui.addButton.disabled = false;
    }
  }

  #closeAdd() {
    clearTimeout(this.#frameTimer);
    this.#vault = undefined;
    this.#ui.frameSlot.replaceChildren();
    this.#ui.add.hidden = true;
    this.#ui.addButton.hidden = false;
    this.#say('');
  }

  #tokenize() {
    const vault = this.#vault;
    if (!vault || !vault.ready || vault.busy) return;
    vault.busy = true;
    this.#ui.save.disabled = true;
    this.#clearError();
    this.#say('Saving the card…');
    vault.frame.contentWindow.postMessage({ type: 'VAULT_TOKENIZE' }, vault.origin);
  }

  /** Messages from the vault's frame only: its origin and its window, nobody else's. */
  #vaultMessage(event) {
    const vault = this.#vault;
    if (!vault || event.origin !== vault.origin || event.source !== vault.frame.contentWindow) return;
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'VAULT_READY') {
      vault.ready = true;
      clearTimeout(this.#frameTimer);
      this.#ui.save.disabled = false;
      this.#say('');
    } else if (message.type === 'VAULT_TOKEN_CREATED' && typeof message.token_id === 'string') {
      void this.#saveToken(vault, message.token_id);
    } else if (message.type === 'VAULT_ERROR') {
      vault.busy = false;
      this.#ui.save.disabled = false;
      const fields = Object.values(message.fields ?? {}).filter((text) => typeof text === 'string');
      const detail = [typeof message.message === 'string' ? message.message : '', ...fields].filter(Boolean).join(' ');
      this.#fail('card_invalid', `The card wasn't saved. ${detail || 'Check the card details and try again.'}`);
    }
  }

  async #saveToken(vault, tokenId) {
    const isDefault = this.#ui.makeDefault.checked;
    try {
      const created = await this.#api('POST', `${this.#userPath}/from-token`, { vaultToken: tokenId, isDefault });
      this.#closeAdd();
      if (this.#timer) this.#flush();
      this.#setSelected(created.id);
      await this.#refresh();
      this.#say('Card saved.');
      this.#emit('added', { cardCount: this.#cards.length, isDefault: Boolean(this.#selected()?.isDefault) });
    } catch (error) {
      vault.busy = false;
      this.#ui.save.disabled = false;
      this.#fail(error.code ?? 'error', this.#explain(error, 'save the card'));
    }
  }
}

if (!customElements.get('card-capture')) customElements.define('card-capture', CardCapture);
