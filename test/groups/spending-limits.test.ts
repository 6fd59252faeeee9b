/**
 * Spending limits and their consent, purchase confirmations, offers over REST.
 * One test process for these files: see ava.config.js.
 */
import '../spending-limits-apps.test.js';
import '../spending-limits-consent.test.js';
import '../purchase-confirmations.test.js';
import '../offers.test.js';
