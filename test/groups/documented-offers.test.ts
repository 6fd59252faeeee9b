/**
 * provider_a's preselected offers, provider_c's offers, provider_e's documented offers.
 * One test process for these files: see ava.config.js.
 */
import '../provider-a-preselected.test.js';
import '../provider-c-offers.test.js';
import '../provider-e-documented-offers.test.js';
