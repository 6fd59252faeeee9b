/**
 * Deleting a card while the card vault is down: the payment method is gone and the answer is 204; the
 * redaction's failure is in the log, with the payment method's id and nothing of the card or the token.
 */
import { Writable } from 'node:stream';
import test from 'ava';
import { createLogger } from '../core/logger.js';
import { asPartner, cardTraveler, vaultToken } from './helpers/cards.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix } from './helpers/service.js';

test('a card deleted while the vault is down is deleted; the failed redaction is logged without the token', async (t) => {
  const lines: string[] = [];
  const log = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const running = await startService({}, { rateLimitKeyPrefix: uniquePrefix(), logger: createLogger('info', log) });
  t.teardown(() => running.close());
  const traveler = await cardTraveler(running, 'payments.read payments.write');
  const token = await vaultToken(running, traveler.browser);
  const { id } = await jsonOf(await asPartner(running, traveler, '/v1/users/me/payment-methods/from-token', { body: { vaultToken: token } }));

  await running.closeOwnPortServers();
  const deleted = await asPartner(running, traveler, `/v1/users/me/payment-methods/${id}`, { method: 'DELETE' });
  t.is(deleted.status, 204);
  t.is(await running.service.db.knex('payment_methods').where({ id }).first(), undefined, 'the row is gone');
  const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.payment_method_id === id);
  t.truthy(failure, 'the log names the payment method');
  t.is(failure.level, 40, 'a warning');
  t.regex(failure.msg, /did not redact/);
  // The vault sandbox shares this process's log and names its own tokens in its request lines (a real vault's
  // log is its own): the service's lines must not.
  const services = lines.filter((line) => JSON.parse(line).system !== 'vault_sandbox');
  t.false(services.some((line) => line.includes(token)), 'the token is nowhere in the service’s log');
  t.false(lines.some((line) => line.includes('4242424242424242')), 'nor the card number in any line');
});
