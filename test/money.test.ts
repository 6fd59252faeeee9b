import test from 'ava';
import fc from 'fast-check';
import { minorUnits, subtract, toDecimalString } from '../core/money/money.js';

test('amounts keep exactly the minor units of their currency', (t) => {
  t.is(toDecimalString('512.46', 'GBP'), '512.46');
  t.is(toDecimalString(512.46, 'GBP'), '512.46');
  t.is(toDecimalString(96.4, 'GBP'), '96.40');
  t.is(toDecimalString('154300', 'JPY'), '154300');
  t.is(toDecimalString(154300.0, 'JPY'), '154300');
  t.is(toDecimalString('62.45', 'KWD'), '62.450');
  t.is(toDecimalString(0.005, 'USD'), '0.01', 'numbers round half away from zero');
  t.is(toDecimalString(0.004, 'USD'), '0.00');
  t.is(toDecimalString(-1.005, 'EUR'), '-1.01');
  t.is(toDecimalString(-0.001, 'EUR'), '0.00', 'no negative zero');
  t.is(toDecimalString('12.500', 'EUR'), '12.50', 'trailing zeros are not precision');
  t.throws(() => toDecimalString('512.465', 'GBP', 'total_amount'), { message: /not valid/ });
  t.like((() => { try { toDecimalString('15430.50', 'JPY', 'price.total'); } catch (error) { return (error as { fields: object }).fields; } return {}; })(), {
    'price.total': { rule: 'minor_units' },
  });
  t.is(toDecimalString(1e21, 'USD'), '1000000000000000000000.00');
  t.is(subtract('GBP', '512.46', '298.00', '10.5'), '203.96');
  t.is(subtract('JPY', '100', '150'), '-50');
  t.is(minorUnits('kwd'), 3);
  t.is(minorUnits('EUR'), 2);
  t.is(minorUnits('XAU'), undefined, 'gold is not a currency travelers pay in');
  t.is(minorUnits('XOF'), 0, 'the West African CFA franc is');
  t.is(toDecimalString('1000', 'XOF'), '1000');
  t.is(minorUnits('ABC'), undefined);
  t.throws(() => toDecimalString('12,50', 'EUR'), { message: /not valid/ });
  t.throws(() => toDecimalString('1', 'ABC'));
});

test('any amount in any currency comes out with exactly its minor units and the same value', (t) => {
  const currencies = ['GBP', 'USD', 'EUR', 'JPY', 'KWD', 'BHD', 'CLF'];
  fc.assert(
    fc.property(fc.constantFrom(...currencies), fc.bigInt({ min: 0n, max: 10n ** 15n }), (currency, units) => {
      const digits = minorUnits(currency) as number;
      const text = digits === 0 ? units.toString() : `${units / 10n ** BigInt(digits)}.${(units % 10n ** BigInt(digits)).toString().padStart(digits, '0')}`;
      const result = toDecimalString(text, currency);
      const fraction = result.split('.')[1] ?? '';
      return fraction.length === digits && BigInt(result.replace('.', '')) === units;
    }),
  );
  t.pass();
});
