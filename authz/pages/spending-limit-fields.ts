/**
 * The three inputs of a spending limit (currency, per booking, per rolling 30 days), shared by the consent
 * page and the Connected apps page. The currency is chosen from the payable ISO 4217 currencies, the one
 * the form holds selected (the traveler's preferred currency for a new limit); a posted code that is not
 * in the list selects "Choose a currency" rather than silently becoming the first one. Each input that holds a problem is marked invalid and names the
 * message saying why (aria-describedby). No `pattern` or `required`: Deny and Remove must post whatever is
 * typed, and the server's messages say more than a browser's.
 */
import { LIMIT_CURRENCIES, type LimitFields, type LimitProblem } from '../spending-limit-form.js';
import { html, type Html } from './html.js';

export function spendingLimitInputs(idPrefix: string, values: LimitFields, problems: readonly LimitProblem[] = []): Html {
  const invalid = (name: keyof LimitFields) => {
    const problem = problems.find((item) => item.field === name);
    return {
      attributes: problem ? html`aria-invalid="true" aria-describedby="${idPrefix}-${name}-error"` : '',
      message: problem ? html`<p class="error" role="alert" id="${idPrefix}-${name}-error">${problem.message}</p>` : '',
    };
  };
  const input = (name: 'per_booking' | 'per_30_days', label: string) => {
    const id = `${idPrefix}-${name}`;
    const { attributes, message } = invalid(name);
    return html`<label for="${id}">${label}</label>
      <input id="${id}" name="${name}" type="text" value="${values[name]}" inputmode="decimal" autocomplete="off"
        ${attributes}>
      ${message}`;
  };
  const currency = () => {
    const id = `${idPrefix}-currency`;
    const { attributes, message } = invalid('currency');
    const known = LIMIT_CURRENCIES.some((item) => item.code === values.currency);
    const options = LIMIT_CURRENCIES.map(
      (item) => html`<option value="${item.code}"${item.code === values.currency ? html` selected` : ''}>${item.code} – ${item.name}</option>`,
    );
    return html`<label for="${id}">Currency</label>
      <select id="${id}" name="currency" autocomplete="off" ${attributes}>
        ${known ? '' : html`<option value="" selected>Choose a currency</option>`}
        ${options}
      </select>
      ${message}`;
  };
  return html`${currency()}
    ${input('per_booking', 'Most for one booking (blank: no cap)')}
    ${input('per_30_days', 'Most in any 30 days (blank: no cap)')}`;
}
