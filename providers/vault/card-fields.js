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

  /**
   * What the traveler typed as a month and a four-digit year: `12/30`, `1230`, `12 / 30`, `12-30`,
   * `12/2030`, `1/30`; undefined when it is not two numbers. The month is not checked here.
   */
  const readExpiry = (value) => {
    const match = /^\s*(\d{1,2})\s*[/.\-\s]?\s*(\d{2}|\d{4})\s*$/.exec(value);
    if (!match) return undefined;
    const month = Number(match[1]);
    const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    return { month, year };
  };

  /** A month from 1 to 12 and a four-digit year; undefined otherwise. */
  const parseExpiry = (value) => {
    const expiry = readExpiry(value);
    return expiry && expiry.month >= 1 && expiry.month <= 12 ? expiry : undefined;
  };

  const expiryProblem = (value) => {
    if (value.trim() === '') return 'Enter the expiry date.';
    const expiry = readExpiry(value);
    if (!expiry) return 'Enter it as MM/YY, e.g. 12/30.';
    if (expiry.month < 1 || expiry.month > 12) return 'The month must be 01 to 12.';
    const now = new Date();
    if (expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1)) {
      return 'This card has expired.';
    }
    if (expiry.year > now.getFullYear() + 50) return 'Check the year: it is too far ahead.';
    return undefined;
  };

  /**
   * The expiry as it should show while typed: the month's digits, a slash, the year's. A slash (or a
   * space, dash or dot) typed after the month ends it (`1/` is `01/`); a second one is dropped. Two
   * digits of month get their slash as they are typed, but not while deleting, so that Backspace over
   * that slash takes it away. A four-digit year of this century (pasted `12/2030`) is cut to two.
   */
  const formatExpiry = (raw, deleting) => {
    const text = raw.replace(/^\D+/, '');
    const separator = /[/.\-\s]/.exec(text);
    let month;
    let year;
    if (separator) {
      month = text.slice(0, separator.index).replace(/\D/g, '');
      year = text.slice(separator.index + 1).replace(/\D/g, '');
      if (month.length > 2) {
        year = month.slice(2) + year;
        month = month.slice(0, 2);
      } else if (month.length === 1 && month !== '0' && !deleting) {
        month = `0${month}`;
      }
    } else {
      const digits = text.replace(/\D/g, '');
      // A first digit that cannot start a two-digit month is the month (`4` is `04`).
      const single = /^[2-9]/.test(digits) && !deleting;
      month = single ? `0${digits[0]}` : digits.slice(0, 2);
      year = single ? digits.slice(1) : digits.slice(2);
    }
    if (year.length > 4) year = year.slice(0, 4);
    if (year.length === 4 && year.startsWith('20')) year = year.slice(2);
    if (month === '') return '';
    const slash = year !== '' || (separator !== null && month.length > 0) || (month.length === 2 && !deleting);
    return `${month}${slash ? '/' : ''}${year}`;
  };

  /** Reformats the expiry field, keeping the caret after the same digit it was after. */
  const formatExpiryField = (input, inputType) => {
    const raw = input.value;
    const deleting = typeof inputType === 'string' && inputType.startsWith('delete');
    const formatted = formatExpiry(raw, deleting);
    if (formatted === raw) return;
    const caret = input.selectionStart ?? raw.length;
    const atEnd = caret >= raw.length;
    const digitsBefore = raw.slice(0, caret).replace(/\D/g, '').length;
    input.value = formatted;
    let position = formatted.length;
    if (!atEnd) {
      position = 0;
      for (let seen = 0; position < formatted.length && seen < digitsBefore; position++) {
        if (/\d/.test(formatted[position])) seen++;
      }
    }
    input.setSelectionRange(position, position);
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
    if (input === inputs.expiry) formatExpiryField(input, event.inputType);
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
