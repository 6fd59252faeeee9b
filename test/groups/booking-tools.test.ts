/**
 * Bookings through the tools, their properties and the booking benchmark's pieces; provider_e's adapter, offer normalization.
 * One test process for these files: see ava.config.js.
 */
import '../booking-properties.test.js';
import '../booking-tools.test.js';
import '../booking-bench.test.js';
import '../provider-e.test.js';
import '../offer-normalization.test.js';
