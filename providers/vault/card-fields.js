/* global window, document, fetch */
/**
 * The hosted card fields' script (served as /elements/card.js; see hosted-fields.ts). It runs inside the
 * vault's frame: the card never leaves it except to the vault's own POST /tokens. Messages go to, and are
 * taken from, the framing page's origin only (the session's), and never carry the number or the code.
 *
 * The rules repeat card-numbers.ts, so that a typo is shown before anything is sent; the vault checks
 * again and its answer is the one that counts.
 */
(() => {
  'use strict';

  const form = document.getElementById('card-form');
  if (!form) return;
  const parentOrigin = form.dataset.parentOrigin;
  const sessionKey = form.dataset.sessionKey;
  const inputs = {
    number: document.getElementById('number'),
    expiry: document.getElementById('expiry'),
    cvc: document.getElementById('cvc'),
  };
  let busy = false;

  const tell = (message) => window.parent.postMessage(message, parentOrigin);

  // ---- The rules ---------------------------------------------------------------------------------

  const digitsOf = (value) => value.replace(/[\s-]/g, '');

  const passesLuhn = (digits) => {
    let sum = 0;
    for (let index = 0; index < digits.length; index++) {
      let digit = Number(digits[digits.length - 1 - index]);
      if (index % 2 === 1) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    return sum % 10 === 0;
  };

  const isAmex = (digits) => /^3[47]/.test(digits);

  const numberProblem = (value) => {
    const digits = digitsOf(value);
    if (digits === '') return 'Enter the card number.';
    if (!/^\d+$/.test(digits)) return 'The card number has digits only.';
    if (digits.length < 13 || digits.length > 19 || (isAmex(digits) && digits.length !== 15) || !passesLuhn(digits)) {
      return 'This card number is not valid: check it against the card.';
    }
    return undefined;
  };

  /** `MM/YY` (or `MM/YYYY`, or `MMYY`) as a month and a four-digit year; undefined when unreadable. */
  const parseExpiry = (value) => {
    const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
    if (!match) return undefined;
    const month = Number(match[1]);
    const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    return month >= 1 && month <= 12 ? { month, year } : undefined;
  };

  const expiryProblem = (value) => {
    if (value.trim() === '') return 'Enter the expiry date.';
    const expiry = parseExpiry(value);
    if (!expiry) return 'Enter the expiry date as MM/YY.';
    const now = new Date();
    if (expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1)) {
      return 'This card has expired.';
    }
    return undefined;
  };

  const cvcProblem = (value) => {
    const length = isAmex(digitsOf(inputs.number.value)) ? 4 : 3;
    if (value === '') return 'Enter the security code.';
    return new RegExp(`^\\d{${length}}$`).test(value) ? undefined : `The security code has ${length} digits.`;
  };

  const problemsNow = () => {
    const problems = {};
    const number = numberProblem(inputs.number.value);
    const expiry = expiryProblem(inputs.expiry.value);
    const cvc = cvcProblem(inputs.cvc.value);
    if (number) problems.number = number;
    if (expiry) problems.expiry = expiry;
    if (cvc) problems.cvc = cvc;
    return problems;
  };

  // ---- What the traveler sees --------------------------------------------------------------------

  const show = (problems) => {
    for (const name of Object.keys(inputs)) {
      const message = problems[name] || '';
      inputs[name].setAttribute('aria-invalid', message ? 'true' : 'false');
      document.getElementById(`${name}-error`).textContent = message;
    }
  };

  const clear = (name) => {
    inputs[name].removeAttribute('aria-invalid');
    document.getElementById(`${name}-error`).textContent = '';
  };

  const changed = (event) => {
    const input = event.target;
    // `12` typed becomes `12/`, so that the year follows the slash.
    if (input === inputs.expiry && event.inputType === 'insertText' && /^\d{2}$/.test(input.value)) input.value += '/';
    clear(input.name);
    const empty = Object.values(inputs).every((field) => field.value.trim() === '');
    tell({ type: 'VAULT_CHANGE', complete: Object.keys(problemsNow()).length === 0, empty });
  };

  // ---- Creating the token ------------------------------------------------------------------------

  /** The vault's fields (`data.number`, `data.expiration_month`, ...) as ours. */
  const fieldOf = (key) => {
    if (key === 'data.number') return 'number';
    if (key === 'data.expiration_month' || key === 'data.expiration_year') return 'expiry';
    if (key === 'data.cvc') return 'cvc';
    return undefined;
  };

  const fail = (message, fields) => {
    show(fields);
    tell({ type: 'VAULT_ERROR', message, fields });
  };

  const tokenize = async () => {
    const problems = problemsNow();
    if (Object.keys(problems).length > 0) return fail('Check the card details.', problems);
    const expiry = parseExpiry(inputs.expiry.value);
    let response;
    try {
      response = await fetch('/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'BT-API-KEY': sessionKey },
        body: JSON.stringify({
          type: 'card',
          data: { number: digitsOf(inputs.number.value), expiration_month: expiry.month, expiration_year: expiry.year, cvc: inputs.cvc.value },
        }),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      return fail('The card could not be saved just now: check the connection and try again.', {});
    }
    if (response.status === 201) {
      const token = await response.json();
      show({});
      return tell({ type: 'VAULT_TOKEN_CREATED', token_id: token.id });
    }
    if (response.status === 400) {
      const answer = await response.json().catch(() => ({}));
      const fields = {};
      for (const [key, messages] of Object.entries(answer.errors || {})) {
        const field = fieldOf(key);
        if (field && !fields[field]) fields[field] = field === 'number' ? 'This card number is not valid: check it against the card.' : String(messages[0]);
      }
      return fail('Check the card details.', fields);
    }
    if (response.status === 401) return fail('This card form has expired: reload the page to start again.', {});
    return fail('The card could not be saved just now: try again in a moment.', {});
  };

  window.addEventListener('message', (event) => {
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    if (!event.data || event.data.type !== 'VAULT_TOKENIZE' || busy) return;
    busy = true;
    tokenize()
      .catch(() => fail('The card could not be saved just now: try again in a moment.', {}))
      .finally(() => {
        busy = false;
      });
  });
  form.addEventListener('input', changed);
  // Enter in a field would submit the form: the framing page decides when to save.
  form.addEventListener('submit', (event) => event.preventDefault());
  tell({ type: 'VAULT_READY' });
})();
