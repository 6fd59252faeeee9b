/**
 * Bookings over REST: reading them back, the checks before booking, holds, price changes; provider_b's adapter.
 * One test process for these files: see ava.config.js.
 */
import '../bookings.test.js';
import '../booking-checks.test.js';
import '../booking-holds.test.js';
import '../booking-price-change.test.js';
import '../provider-b.test.js';
