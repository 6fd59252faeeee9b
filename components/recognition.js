/**
 * <travel-partner-recognition>: recognizes a returning traveler on an airline's page, without a password.
 * One ES module, no build step, no dependencies; served by the authorization server (AUTH_URL) at
 * /components/recognition.js, which is how it knows where the recognition frame and the sign-in live.
 *
 *   <script type="module" src="https://auth.example.com/components/recognition.js"></script>
 *   <travel-partner-recognition client-id="…" redirect-uri="https://www.airline.example/"
 *     airline-name="Example Air"></travel-partner-recognition>
 *
 * Props (JS properties; the strings also as kebab-case attributes):
 * - clientId (required): the airline's OAuth client id.
 * - redirectUri (required): exactly one of the client's registered redirect URIs; the page the component
 *   runs on (the frame posts only to its origin, and sign-in comes back to it).
 * - scope: array of scopes the chip's sign-in asks for; default ['profile.read', 'preferences.read'].
 *   As an attribute: space-separated.
 * - isProd: default false. True on a production page: against a sandbox server it is a config error.
 * - chipPosition: 'bottom-left' (default), 'bottom-right', 'left', 'right'.
 * - transparency: 'full' (default: who is recognized and what the airline learned), 'minimal' (a badge).
 * - airlineName: how the chip names the airline.
 * - readyTimeoutMs: how long the frame has to boot; default 10000; 0 disables the timeout.
 * - frameUrl: tests and demos against a sandbox server only (a config error otherwise): load the frame from
 *   this URL instead (one that never boots shows frame_timeout). Messages are still accepted from the
 *   authorization server's origin only.
 * Callbacks (properties):
 * - onState(state): 'recognized', 'anonymous' or 'none', on every change (the state starts as 'none';
 *   also `element.state`). No identity data.
 * - onToken(token): a fresh single-use recognition token (about two minutes): send it to your backend,
 *   which resolves it with POST /v1/identity/resolve and its client credentials.
 * - onError({source, message}): source 'config' (props invalid; state none), 'frame_timeout' (the frame
 *   did not boot within readyTimeoutMs; state none), 'authorization' (the chip's sign-in came back with an
 *   error, `error` holds its code, e.g. access_denied).
 * Event: `travel-partner-authorization` (bubbles), detail {code, codeVerifier, redirectUri}, when the
 * chip's sign-in comes back to redirectUri: the airline may exchange the code on its backend for tokens
 * and the traveler's svc_guid; recognition does not need it (the frame recognizes the traveler now).
 *
 * Messages from the frame, accepted only from the authorization server's origin and this frame's window:
 * SVC_RECOGNITION_READY, SVC_RECOGNITION_STATE {state}, SVC_RECOGNITION_TOKEN {token},
 * SVC_RECOGNITION_SIGN_IN (the anonymous chip's button: the page goes to the authorization endpoint),
 * SVC_RECOGNITION_SIZE {height} (the chip's content height in CSS pixels: the iframe takes it, so the chip
 * is never clipped; the element's own box is the iframe's, for a page that reserves room for it).
 */

/** The authorization server (issuer): this module is served at {AUTH_URL}/components/recognition.js. */
const AUTH_URL = new URL('..', import.meta.url);
const AUTH_ORIGIN = AUTH_URL.origin;
// The server rewrites this line when it serves the module: true when it is a sandbox.
const SERVER_IS_SANDBOX = false;

const DEFAULT_SCOPE = ['profile.read', 'preferences.read'];
const DEFAULT_READY_TIMEOUT_MS = 10000;
/** Bounds on the height the frame may ask for: a chip, never a wall over the airline's page. */
const MIN_FRAME_HEIGHT = 24;
const MAX_FRAME_HEIGHT = 400;
const CHIP_POSITIONS = ['bottom-left', 'bottom-right', 'left', 'right'];
const TRANSPARENCIES = ['full', 'minimal'];
const STATES = ['recognized', 'anonymous', 'none'];
const CALLBACKS = ['onToken', 'onState', 'onError'];
const STORAGE_PREFIX = 'travel-partner-recognition:';
const ATTRIBUTES = {
  'client-id': 'clientId',
  'redirect-uri': 'redirectUri',
  scope: 'scope',
  'is-prod': 'isProd',
  'chip-position': 'chipPosition',
  transparency: 'transparency',
  'airline-name': 'airlineName',
  'ready-timeout-ms': 'readyTimeoutMs',
  'frame-url': 'frameUrl',
};

const STYLES = `
:host { position: fixed; z-index: 2147483000; display: block; }
:host([hidden]) { display: none; }
:host(.bottom-left) { left: 16px; bottom: 16px; }
:host(.bottom-right) { right: 16px; bottom: 16px; }
:host(.left) { left: 16px; top: 50%; transform: translateY(-50%); }
:host(.right) { right: 16px; top: 50%; transform: translateY(-50%); }
iframe { display: block; border: 0; width: min(320px, calc(100vw - 32px)); height: 88px; border-radius: 10px; color-scheme: normal; }
iframe.minimal { width: min(240px, calc(100vw - 32px)); height: 44px; }
`;

let sharedSheet;
function adoptStyles(root) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    sharedSheet ??= new CSSStyleSheet();
    if (sharedSheet.cssRules.length === 0) sharedSheet.replaceSync(STYLES);
    root.adoptedStyleSheets = [sharedSheet];
  } else {
    const style = document.createElement('style');
    style.textContent = STYLES;
    root.append(style);
  }
}

function base64url(bytes) {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return window.btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(byteCount) {
  return base64url(window.crypto.getRandomValues(new Uint8Array(byteCount)));
}

class TravelPartnerRecognition extends HTMLElement {
  static get observedAttributes() {
    return Object.keys(ATTRIBUTES);
  }

  #props = {};
  #state = 'none';
  #frame;
  #timer;
  #restart = false;
  #onMessage = (event) => this.#receive(event);

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    adoptStyles(this.shadowRoot);
  }

  // The props as properties: a change of one that shapes the frame reloads it; callbacks are read when called.
  static {
    for (const name of [...Object.values(ATTRIBUTES), ...CALLBACKS]) {
      const shapesFrame = !CALLBACKS.includes(name);
      Object.defineProperty(this.prototype, name, {
        get() {
          return this.#props[name];
        },
        set(value) {
          if (value === undefined || value === null) delete this.#props[name];
          else this.#props[name] = value;
          if (shapesFrame) this.#scheduleStart();
        },
      });
    }
  }

  /** The current state: 'recognized', 'anonymous' or 'none'. */
  get state() {
    return this.#state;
  }

  connectedCallback() {
    // Properties a page set before this module defined the element are own properties that hide the
    // accessors below: take them over.
    for (const name of [...Object.values(ATTRIBUTES), ...CALLBACKS]) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    window.addEventListener('message', this.#onMessage);
    this.#scheduleStart();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
    this.#stop();
  }

  attributeChangedCallback(name, _old, value) {
    if (value === null) delete this.#props[ATTRIBUTES[name]];
    else this.#props[ATTRIBUTES[name]] = value;
    this.#scheduleStart();
  }

  /** Property changes are gathered and applied once, after the current task (a page sets several at once). */
  #scheduleStart() {
    if (!this.isConnected || this.#restart) return;
    this.#restart = true;
    queueMicrotask(() => {
      this.#restart = false;
      if (this.isConnected) this.#start();
    });
  }

  #stop() {
    clearTimeout(this.#timer);
    this.#frame?.remove();
    this.#frame = undefined;
  }

  #start() {
    this.#stop();
    const config = this.#config();
    if (typeof config === 'string') {
      this.#setState('none');
      this.#error({ source: 'config', message: config });
      return;
    }
    this.#completeSignIn(config);
    for (const position of CHIP_POSITIONS) this.classList.toggle(position, position === config.chipPosition);
    const frame = document.createElement('iframe');
    frame.title = 'Travel Partner';
    frame.className = config.transparency;
    frame.src = config.frameUrl;
    this.#frame = frame;
    if (config.readyTimeoutMs > 0) {
      this.#timer = setTimeout(() => {
        // A frame that boots later must not recognize anyone after the page was told it failed.
        this.#stop();
        this.#setState('none');
        this.#error({ source: 'frame_timeout', message: `The recognition frame did not load within ${config.readyTimeoutMs} ms.` });
      }, config.readyTimeoutMs);
    }
    this.shadowRoot.append(frame);
  }

  /** The props checked, or what is wrong with them. */
  #config() {
    const p = this.#props;
    const clientId = typeof p.clientId === 'string' ? p.clientId.trim() : '';
    if (!clientId) return 'clientId is required: your OAuth client id.';
    const redirectUri = typeof p.redirectUri === 'string' ? p.redirectUri : '';
    try {
      new URL(redirectUri);
    } catch {
      return 'redirectUri is required: one of your registered redirect URIs, as an absolute URL.';
    }
    const scope = p.scope === undefined ? DEFAULT_SCOPE : typeof p.scope === 'string' ? p.scope.split(/\s+/).filter(Boolean) : p.scope;
    if (!Array.isArray(scope) || scope.length === 0 || !scope.every((item) => typeof item === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(item))) {
      return 'scope must be a non-empty array of scope names, such as ["profile.read", "preferences.read"].';
    }
    const isProd = p.isProd === true || p.isProd === 'true' || p.isProd === '';
    if (isProd && SERVER_IS_SANDBOX) return `isProd is true, but ${AUTH_ORIGIN} is a sandbox server: load the component from the production server, or leave isProd false.`;
    const chipPosition = p.chipPosition ?? 'bottom-left';
    if (!CHIP_POSITIONS.includes(chipPosition)) return `chipPosition must be one of ${CHIP_POSITIONS.join(', ')}.`;
    const transparency = p.transparency ?? 'full';
    if (!TRANSPARENCIES.includes(transparency)) return `transparency must be one of ${TRANSPARENCIES.join(', ')}.`;
    const airlineName = p.airlineName === undefined ? undefined : String(p.airlineName);
    const readyTimeoutMs = p.readyTimeoutMs === undefined ? DEFAULT_READY_TIMEOUT_MS : Number(p.readyTimeoutMs);
    if (!Number.isFinite(readyTimeoutMs) || readyTimeoutMs < 0) return 'readyTimeoutMs must be a number of milliseconds (0 disables the timeout).';
    const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, scope: scope.join(' '), transparency, chip_position: chipPosition });
    if (airlineName) query.set('airline_name', airlineName);
    if (p.frameUrl && !SERVER_IS_SANDBOX) return 'frameUrl is for tests and demos against a sandbox server: remove it.';
    const frameUrl = p.frameUrl ? new URL(String(p.frameUrl), location.href).href : `${new URL('recognition/frame', AUTH_URL).href}?${query}`;
    return { clientId, redirectUri, scope, chipPosition, transparency, readyTimeoutMs, frameUrl };
  }

  #receive(event) {
    if (!this.#frame || event.origin !== AUTH_ORIGIN || event.source !== this.#frame.contentWindow) return;
    const message = event.data;
    if (typeof message !== 'object' || message === null) return;
    switch (message.type) {
      case 'SVC_RECOGNITION_READY':
        clearTimeout(this.#timer);
        break;
      case 'SVC_RECOGNITION_STATE':
        if (STATES.includes(message.state)) this.#setState(message.state);
        break;
      case 'SVC_RECOGNITION_TOKEN':
        if (typeof message.token === 'string') this.#call('onToken', message.token);
        break;
      case 'SVC_RECOGNITION_SIGN_IN':
        void this.#signIn();
        break;
      case 'SVC_RECOGNITION_SIZE':
        if (typeof message.height === 'number' && Number.isFinite(message.height)) {
          this.#frame.style.height = `${Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(message.height)))}px`;
        }
        break;
    }
  }

  #setState(state) {
    if (state === this.#state) return;
    this.#state = state;
    this.#call('onState', state);
  }

  #error(error) {
    this.#call('onError', error);
  }

  #call(name, value) {
    const callback = this.#props[name];
    if (typeof callback !== 'function') return;
    try {
      callback(value);
    } catch (error) {
      console.error(`travel-partner-recognition: ${name} threw`, error);
    }
  }

  /** The chip's sign-in: an authorization request with PKCE (S256), the page navigating to it. */
  async #signIn() {
    const config = this.#config();
    if (typeof config === 'string') return;
    const verifier = randomString(32);
    const state = randomString(16);
    const challenge = base64url(await window.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    window.sessionStorage.setItem(STORAGE_PREFIX + config.clientId, JSON.stringify({ state, verifier, redirectUri: config.redirectUri }));
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: config.clientId,
      redirect_uri: config.redirectUri,
      scope: config.scope.join(' '),
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    window.location.assign(`${AUTH_URL.href}?${query}`);
  }

  /** Back at redirectUri from the chip's sign-in: the code (or the error) is taken out of the URL. */
  #completeSignIn(config) {
    const key = STORAGE_PREFIX + config.clientId;
    const saved = window.sessionStorage.getItem(key);
    if (!saved) return;
    const here = new URL(location.href);
    const params = here.searchParams;
    let pending;
    try {
      pending = JSON.parse(saved);
    } catch {
      window.sessionStorage.removeItem(key);
      return;
    }
    if (!params.has('state') || params.get('state') !== pending.state) return;
    window.sessionStorage.removeItem(key);
    const code = params.get('code');
    const error = params.get('error');
    const description = params.get('error_description');
    for (const name of ['code', 'state', 'iss', 'error', 'error_description', 'error_uri']) params.delete(name);
    window.history.replaceState(window.history.state, '', here.href);
    if (code) {
      this.dispatchEvent(new CustomEvent('travel-partner-authorization', { bubbles: true, composed: true, detail: { code, codeVerifier: pending.verifier, redirectUri: pending.redirectUri } }));
    } else if (error) {
      this.#error({ source: 'authorization', error, message: description || `The sign-in ended with ${error}.` });
    }
  }
}

if (!customElements.get('travel-partner-recognition')) customElements.define('travel-partner-recognition', TravelPartnerRecognition);
