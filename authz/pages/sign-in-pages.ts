/** The hosted sign-in and consent pages: labelled inputs, one box per scope, plain buttons. */
import type { ConsentScope } from '../../core/scopes.js';
import type { LimitFields, LimitProblem } from '../spending-limit-form.js';
import { html, page, type Html } from './html.js';
import { spendingLimitInputs } from './spending-limit-fields.js';
import { scopeBox } from './scope-box.js';

export interface FormContext {
  /** Where the form posts. */
  action: string;
  csrfToken: string;
  /** A message saying what went wrong and what to do, shown above the form. */
  error?: string;
}

/** The message about a field's value, which the field names as its description (aria-describedby). */
function problem(error: string | undefined, id?: string): Html {
  return html`${error ? html`<p class="error" role="alert" ${id ? html`id="${id}"` : ''}>${error}</p>` : ''}`;
}

/** Marks an input as invalid and points it at the message saying why, for screen readers. */
function invalid(error: string | undefined, messageId: string): Html {
  return error ? html`aria-invalid="true" aria-describedby="${messageId}"` : html``;
}

function csrf(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

export function emailPage(form: FormContext & { clientName: string; email?: string }): string {
  return page(
    'Sign in',
    html`<p>Sign in to continue to <strong>${form.clientName}</strong>. We will e-mail you a code.</p>
    ${problem(form.error, 'email-error')}
    <form method="post" action="${form.action}">
      ${csrf(form.csrfToken)}
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="email" required maxlength="255" value="${form.email ?? ''}" ${invalid(form.error, 'email-error')} autofocus>
      <div class="actions"><button class="primary" type="submit">Continue</button></div>
    </form>`,
  );
}

export function codePage(form: FormContext & { sentTo: string; digits: number; resendAction: string; notice?: string }): string {
  return page(
    'Enter your code',
    html`<p>We sent a ${form.digits}-digit code to <strong>${form.sentTo}</strong>. It expires in 10 minutes.</p>
    ${form.notice ? html`<p class="notice" role="status">${form.notice}</p>` : ''}
    ${problem(form.error, 'code-error')}
    <form method="post" action="${form.action}">
      ${csrf(form.csrfToken)}
      <label for="code">Code</label>
      <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required
        pattern="[0-9]{${form.digits}}" minlength="${form.digits}" maxlength="${form.digits}" ${invalid(form.error, 'code-error')} autofocus>
      <div class="actions"><button class="primary" type="submit">Continue</button></div>
    </form>
    <form method="post" action="${form.resendAction}">
      ${csrf(form.csrfToken)}
      <p class="hint">No code? <button class="secondary" type="submit">Send a new code</button></p>
    </form>`,
  );
}

export function consentPage(
  form: FormContext & {
    clientName: string;
    scopes: readonly ConsentScope[];
    /**
     * Scopes of `scopes` the traveler declined or turned off before, which the app names again (Scopes
     * rule 9): unticked unless the traveler ticks them, with a note saying so.
     */
    reasked?: readonly ConsentScope[];
    denyAction: string;
    unverifiedHost?: string;
    /** The host of the URL that identifies the app (its client metadata document), shown instead of "registered itself". */
    documentHost?: string;
    /** Who is signed in, and where another traveler signs in instead ("Not you?"). */
    signedInAs: string;
    switchUrl: string;
    /** The sign-out form: where it posts, and its CSRF token (bound to the session, not the attempt). */
    signOut: { action: string; csrfToken: string };
    /** The boxes left ticked when the page comes back with a problem; default: every one not re-asked. */
    ticked?: readonly string[];
    /** The optional spending limit's fields, offered when an agent asks for bookings.write. */
    spendingLimit?: { values: LimitFields; problems: readonly LimitProblem[] };
    /** An airline client (decisions §13): the page says that the airline will recognize the traveler on its sites. */
    recognizes?: boolean;
  },
): string {
  const boxes = form.scopes.map((scope) => {
    const reasked = form.reasked?.includes(scope) ?? false;
    const ticked = form.ticked ? form.ticked.includes(scope) : !reasked;
    // A traveler who said no once is not nudged into yes: the box starts unticked, and the note says why it is back.
    const note = reasked
      ? { id: `scope-${scope}-note`, text: html`You turned this off for ${form.clientName} before; ${form.clientName} asks again. Leave it unticked to keep it off.` }
      : undefined;
    return scopeBox(`scope-${scope}`, scope, ticked, note);
  });
  return page(
    'Allow access',
    html`<p class="hint">Signed in as <strong>${form.signedInAs}</strong>. <a href="${form.switchUrl}">Not you? Sign in with another address</a></p>
    <p><strong>${form.clientName}</strong> asks for these permissions. Untick any you do not want to give.</p>
    ${form.documentHost ? html`<p class="hint">This app is identified by a page on <strong>${form.documentHost}</strong>: only whoever runs that site could have published it; we have not checked who that is.${form.unverifiedHost ? html` After this step it sends you back to <strong>${form.unverifiedHost}</strong>.` : ''}</p>` : ''}
    ${form.recognizes ? recognitionNotice(form.clientName) : ''}
    ${form.unverifiedHost && !form.documentHost ? html`<p class="hint">This app registered itself: we have not checked who makes it. After this step it sends you back to <strong>${form.unverifiedHost}</strong>.</p>` : ''}
    ${problem(form.error)}
    <form method="post" action="${form.action}">
      ${csrf(form.csrfToken)}
      <fieldset><legend class="hint">Permissions</legend>${boxes}</fieldset>
      ${form.spendingLimit ? spendingLimitFieldset(form.spendingLimit) : ''}
      <div class="actions">
        <button class="primary" type="submit">Allow</button>
        <button class="secondary" type="submit" formaction="${form.denyAction}" formnovalidate>Deny</button>
      </div>
    </form>
    <form method="post" action="${form.signOut.action}">
      ${csrf(form.signOut.csrfToken)}
      <p class="hint">Not your device? <button class="secondary" type="submit">Sign out</button></p>
    </form>`,
  );
}

/** What connecting an airline means beyond the permissions: it will know the traveler when they visit its sites. */
function recognitionNotice(airline: string): Html {
  return html`<p id="recognition-notice"><strong>${airline} will recognize you on its sites.</strong> While you are signed in here, ${airline}'s
    pages can greet you by name and fill in what you allow below, without asking you to sign in again. To stop it, disconnect
    ${airline} on your <a href="/account/apps">Connected apps</a> page.</p>`;
}

/** Shown with bookings.write: a limit is optional, and without one every purchase still waits for the traveler's confirmation. */
function spendingLimitFieldset(limit: { values: LimitFields; problems: readonly LimitProblem[] }): Html {
  return html`<fieldset>
        <legend class="hint">Spending limit for this app (optional; applies if you leave bookings.write ticked)</legend>
        <p class="hint">Every purchase still needs your confirmation on our page. A limit also refuses, before any card is charged, a booking above it.</p>
        ${spendingLimitInputs('limit', limit.values, limit.problems)}
      </fieldset>`;
}
