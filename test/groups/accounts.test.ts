/**
 * The traveler's own account: the profile, preferences, passengers and messages.
 * One test process for these files: see ava.config.js.
 */
import '../users-me.test.js';
import '../profile.test.js';
import '../preferences.test.js';
import '../passengers.test.js';
import '../messages.test.js';
