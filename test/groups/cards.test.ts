/**
 * Cards: capture over HTTP, the vault and its hosted fields, payment methods over REST; provider_a's orders.
 * One test process for these files: see ava.config.js.
 */
import '../card-capture-http.test.js';
import '../card-vault.test.js';
import '../card-vault-hosted-fields.test.js';
import '../payment-methods.test.js';
import '../provider-a-orders.test.js';
