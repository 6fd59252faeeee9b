/**
 * Failed and abusive attempts, hostile input; provider_e's orders.
 * One test process for these files: see ava.config.js.
 */
import '../failed-auth.test.js';
import '../abuse-limits.test.js';
import '../identity-failed-auth.test.js';
import '../hostile-input.test.js';
import '../provider-e-orders.test.js';
