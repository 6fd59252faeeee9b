/**
 * Checkout sessions, kinds of clients, cross-site changes.
 * One test process for these files: see ava.config.js. The hosted checkout's API tests stay alone: their
 * bookings wait on the sandboxes within the providers' timeouts, which a process busy with other files'
 * tests made them miss under a full suite's load.
 */
import '../checkout-sessions.test.js';
import '../client-kinds.test.js';
import '../cross-site-changes.test.js';
import '../scope-boxes.test.js';
