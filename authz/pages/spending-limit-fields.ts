/**
 * The three inputs of a spending limit (currency, per booking, per rolling 30 days), shared by the consent
 * page and the Connected apps page. Each input that holds a problem is marked invalid and names the
 * message saying why (aria-describedby). No `pattern` or `required`: Deny and Remove must post whatever is
 * typed, and the server's messages say more than a browser's.
 */
import type { LimitFields, LimitProblem } from '../spending-limit-form.js';
import { html, type Html } from './html.js';

export function spendingLimitInputs(idPrefix: string, values: LimitFields, problems: readonly LimitProblem[] = []): Html {
  const input = (name: keyof LimitFields, label: string, attributes: Html) => {
    const id = `${idPrefix}-${name}`;
    const problem = problems.find((item) => item.field === name);
    return html`<label for="${id}">${label}</label>
      <input id="${id}" name="${name}" type="text" value="${values[name]}" ${attributes}
        ${problem ? html`aria-invalid="true" aria-describedby="${id}-error"` : ''}>
      ${problem ? html`<p class="error" role="alert" id="${id}-error">${problem.message}</p>` : ''}`;
  };
  return html`${input('currency', 'Currency', html`maxlength="3" autocapitalize="characters" autocomplete="off" spellcheck="false"`)}
    ${input('per_booking', 'Most for one booking (blank: no cap)', html`inputmode="decimal" autocomplete="off"`)}
    ${input('per_30_days', 'Most in any 30 days (blank: no cap)', html`inputmode="decimal" autocomplete="off"`)}`;
}
