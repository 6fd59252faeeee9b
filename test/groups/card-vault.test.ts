/**
 * The vault's adapter, the browser session's cards, the vault down, the card tools; provider_b's orders.
 * One test process for these files: see ava.config.js.
 */
import '../card-vault-adapter.test.js';
import '../payment-methods-browser.test.js';
import '../payment-methods-vault-down.test.js';
import '../payment-method-tools.test.js';
import '../provider-b-orders.test.js';
