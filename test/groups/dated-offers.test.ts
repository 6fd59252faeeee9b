/**
 * Offers in the future: departure windows, money bounds, provider_a's and provider_d's dated offers.
 * One test process for these files: see ava.config.js.
 */
import '../booking-departure-window.test.js';
import '../departure-window.test.js';
import '../money-bounds.test.js';
import '../provider-a-offers.test.js';
import '../provider-d-dated.test.js';
