/**
 * The authorization server: consent, failures, instances, registration, its database adapter.
 * One test process for these files: see ava.config.js.
 */
import '../oauth-consent.test.js';
import '../oauth-failures.test.js';
import '../oauth-instances.test.js';
import '../oauth-registration.test.js';
import '../oidc-adapter.test.js';
