/**
 * Demo Air's page script: sets up <travel-partner-recognition> as an airline would, logs what it
 * reports, and sends each recognition token to the airline's own backend, which resolves it.
 * `window.demoAirline.lastToken` keeps the last token (the replay button, and tests, use it).
 */
const body = document.getElementById('demo');
const log = document.getElementById('log');
const stateOutput = document.getElementById('state');
const welcome = document.getElementById('welcome');
const claimsSection = document.getElementById('claims-section');
const claims = document.getElementById('claims');
const replay = document.getElementById('replay');
const query = new URLSearchParams(location.search);
const demo = { lastToken: undefined, lastResolve: undefined };
window.demoAirline = demo;

function note(text) {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  log.append(item);
}

async function resolve(token) {
  const response = await fetch('/api/recognize', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  const answer = await response.json().catch(() => ({}));
  demo.lastResolve = { status: response.status, body: answer };
  note(`backend resolve: ${response.status}${answer.error ? ` ${answer.error}` : ''}`);
  if (response.ok) {
    const firstName = answer.profile?.first_name;
    welcome.textContent = firstName ? `Welcome back, ${firstName}` : 'Welcome back';
    claims.textContent = JSON.stringify(answer, null, 2);
    claimsSection.hidden = false;
  }
  return demo.lastResolve;
}
demo.resolve = resolve;

await customElements.whenDefined('travel-partner-recognition');
const chip = document.createElement('travel-partner-recognition');
chip.clientId = body.dataset.clientId;
chip.redirectUri = body.dataset.redirectUri;
chip.scope = body.dataset.scope.split(' ');
chip.airlineName = 'Demo Air';
chip.chipPosition = 'bottom-left';
chip.transparency = 'full';
if (query.get('ready_timeout_ms')) chip.readyTimeoutMs = Number(query.get('ready_timeout_ms'));
if (query.get('frame') === 'broken') chip.frameUrl = '/broken-frame';
chip.onState = (state) => {
  stateOutput.textContent = state;
  note(`state: ${state}`);
  if (state !== 'recognized') {
    welcome.textContent = 'Welcome to Demo Air';
    claimsSection.hidden = true;
  }
};
chip.onToken = (token) => {
  demo.lastToken = token;
  replay.disabled = false;
  note(`token: ${token.slice(0, 6)}… (sent to our backend)`);
  void resolve(token);
};
chip.onError = (error) => note(`error: ${error.source}: ${error.message}`);
chip.addEventListener('travel-partner-authorization', () => note('signed in with Travel Partner (an authorization code came back; this demo does not exchange it)'));
replay.addEventListener('click', () => void resolve(demo.lastToken));
document.body.append(chip);
// The chip's box is its iframe's, which follows the chip's content: the narrow layout keeps that much room
// (and 16px each side) at the bottom (demo.css).
new window.ResizeObserver(() => document.body.style.setProperty('--chip-room', `${Math.ceil(chip.getBoundingClientRect().height) + 32}px`)).observe(chip);
