/**
 * Checkout sessions and the hosted checkout's API, kinds of clients, cross-site changes.
 * One test process for these files: see ava.config.js.
 */
import '../checkout-sessions.test.js';
import '../hosted-checkout-api.test.js';
import '../client-kinds.test.js';
import '../cross-site-changes.test.js';
import '../scope-boxes.test.js';
