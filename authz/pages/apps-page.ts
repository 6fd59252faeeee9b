/**
 * The Connected apps page: who is signed in (and Sign out), each app with its permissions as boxes
 * (ticked = on), Save and Disconnect, and for an app that may book (bookings.write) its spending limit,
 * which the traveler changes or removes there.
 */
import { fromMinorUnits } from '../../core/money/money.js';
import type { SpendingLimit } from '../../core/purchases/contracts.js';
import type { ConnectedApp } from '../connected-apps.js';
import { describeLimit, type LimitFields, type LimitProblem } from '../spending-limit-form.js';
import { html, page, type Html } from './html.js';
import { scopeBox } from './scope-box.js';
import { spendingLimitInputs } from './spending-limit-fields.js';

/** An app's spending limit as the page shows it, with the form's values (the traveler's own after a problem). */
export interface AppSpendingLimit {
  current: SpendingLimit | undefined;
  /** What the app spent for the traveler in the last 30 days, in the limit's currency (minor units). */
  spentIn30Days: bigint | undefined;
  values: LimitFields;
  problems: LimitProblem[];
}

export function appsPage(input: {
  email: string;
  apps: ConnectedApp[];
  csrfToken: string;
  signOutAction: string;
  notice?: string;
  error?: string;
  /** By client id, for the agents holding bookings.write. */
  spendingLimits?: ReadonlyMap<string, AppSpendingLimit>;
}): string {
  const apps = input.apps.map((app) => {
    const base = `/account/apps/${encodeURIComponent(app.client_id)}`;
    const scopes = [...app.granted, ...app.declined].sort();
    const boxes = scopes.map((scope) => scopeBox(`${app.client_id}-${scope}`, scope, app.granted.includes(scope)));
    return html`<section class="app" aria-labelledby="app-${app.client_id}">
      <h2 id="app-${app.client_id}">${app.client_name}</h2>
      <p class="hint">Connected since ${app.connected_at.slice(0, 10)}${app.kind === 'airline' ? html`. This airline recognizes you on its sites while you are signed in here; Disconnect stops it.` : ''}</p>
      <form method="post" action="${base}/scopes">
        <input type="hidden" name="csrf" value="${input.csrfToken}">
        <fieldset><legend class="hint">Permissions (changes apply when the app next refreshes its access)</legend>${boxes}</fieldset>
        <div class="actions">
          <button class="primary" type="submit">Save</button>
          <button class="secondary" type="submit" formaction="${base}/revoke">Disconnect</button>
        </div>
      </form>
      ${input.spendingLimits?.has(app.client_id) ? spendingLimitForm(base, app.client_id, input.csrfToken, input.spendingLimits.get(app.client_id) as AppSpendingLimit) : ''}
    </section>`;
  });
  return page(
    'Connected apps',
    html`<form method="post" action="${input.signOutAction}" class="signed-in">
      <input type="hidden" name="csrf" value="${input.csrfToken}">
      <p>Signed in as <strong>${input.email}</strong>. <button class="secondary" type="submit">Sign out</button></p>
    </form>
    ${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
    ${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
    ${apps.length > 0 ? apps : html`<p>No app has access to your account.</p>`}`,
  );
}

function spendingLimitForm(base: string, clientId: string, csrfToken: string, limit: AppSpendingLimit): Html {
  const { current } = limit;
  const spent =
    current && current.per30DaysMinor !== null && limit.spentIn30Days !== undefined
      ? html` Spent through this app in the last 30 days: ${current.currency} ${fromMinorUnits(limit.spentIn30Days, current.currency)}.`
      : '';
  return html`<form method="post" action="${base}/spending-limit">
        <input type="hidden" name="csrf" value="${csrfToken}">
        <fieldset><legend class="hint">Spending limit</legend>
          <p>${current ? html`${describeLimit(current)} Every purchase still needs your confirmation.${spent}` : 'No limit: every purchase needs your confirmation.'}</p>
          ${spendingLimitInputs(`${clientId}-limit`, limit.values, limit.problems)}
        </fieldset>
        <div class="actions">
          <button class="primary" type="submit">${current ? 'Save limit' : 'Set limit'}</button>
          ${current ? html`<button class="secondary" type="submit" formaction="${base}/spending-limit/remove">Remove limit</button>` : ''}
        </div>
      </form>`;
}

/** After signing out: what happened, and the ways back in. */
export function signedOutPage(appsUrl: string): string {
  return page(
    'Signed out',
    html`<p>You are signed out of Travel Partner in this browser. To go on with an app, go back to it and start again.</p>
    <p>Apps you connected keep the access you gave them: <a href="${appsUrl}">sign in to Connected apps</a> to change it.</p>`,
  );
}
