/**
 * Loyalty links and their consent, contact changes, scope requests; provider_a's adapter.
 * One test process for these files: see ava.config.js.
 */
import '../loyalty-links.test.js';
import '../loyalty-consent.test.js';
import '../contact-change.test.js';
import '../scope-requests.test.js';
import '../provider-a.test.js';
