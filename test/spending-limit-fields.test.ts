/**
 * The spending limit's currency is chosen, not typed: a list of the ISO 4217 currencies a traveler pays
 * in (none of the metals, funds or testing codes), with the one the form holds (the traveler's preferred
 * currency for a new limit) selected. The server's parsing stays strict for whatever is posted.
 */
import test from 'ava';
import currencyCodes from 'currency-codes';
import { spendingLimitInputs } from '../authz/pages/spending-limit-fields.js';
import { limitFieldsOf, parseLimitFields } from '../authz/spending-limit-form.js';
import { minorUnits } from '../core/money/money.js';

const render = (currency: string, problems = [] as { field: 'currency'; message: string }[]) =>
  spendingLimitInputs('limit', { currency, per_booking: '', per_30_days: '' }, problems).text;

const optionsOf = (page: string) => [...page.matchAll(/<option value="([^"]*)"( selected)?>/g)].map((match) => ({ value: match[1], selected: Boolean(match[2]) }));

test('the currency is a labelled <select> of every payable ISO 4217 currency, the preferred one selected', (t) => {
  const page = render('EUR');
  t.regex(page, /<label for="limit-currency">Currency<\/label>\s*<select id="limit-currency" name="currency"/);
  t.notRegex(page, /name="currency" type="text"/);
  const options = optionsOf(page);
  const payable = currencyCodes.codes().filter((code) => minorUnits(code) !== undefined);
  t.deepEqual(options.map((option) => option.value).sort(), [...payable].sort());
  for (const code of ['XAU', 'XXX', 'XTS', 'XDR']) t.false(options.some((option) => option.value === code), `${code} is not offered`);
  for (const code of ['GBP', 'JPY', 'KWD', 'USD']) t.true(options.some((option) => option.value === code), `${code} is offered`);
  t.deepEqual(options.filter((option) => option.selected).map((option) => option.value), ['EUR']);
  t.regex(page, /<option value="EUR" selected>EUR – Euro<\/option>/);
});

test('a posted code that is not offered is not silently replaced: “Choose a currency” is selected, and the problem named', (t) => {
  const page = render('XYZ', [{ field: 'currency', message: 'XYZ is not a currency we know' }]);
  t.deepEqual(optionsOf(page).filter((option) => option.selected).map((option) => option.value), ['']);
  t.regex(page, /<option value="" selected>Choose a currency<\/option>/);
  t.regex(page, /<select id="limit-currency" name="currency"[^>]*aria-invalid="true" aria-describedby="limit-currency-error"/);
  t.notRegex(render('USD'), /Choose a currency/, 'no empty choice when the form holds a currency');
});

test('parsing stays strict: an unknown, non-payable or blank code is refused, whatever the page offered', (t) => {
  for (const currency of ['XYZ', 'XAU', '', 'GB', 'GBPX']) {
    const parsed = parseLimitFields(limitFieldsOf({ currency, per_booking: '10', per_30_days: '' }));
    t.false(parsed.ok, currency);
    if (!parsed.ok) t.is(parsed.problems[0]?.field, 'currency');
  }
  t.deepEqual(parseLimitFields(limitFieldsOf({ currency: 'jpy', per_booking: '', per_30_days: '500' })), {
    ok: true,
    limit: { currency: 'JPY', perBookingMinor: null, per30DaysMinor: 500n },
  });
});
