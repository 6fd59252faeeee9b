/**
 * Resource indicators, PKCE, failed client secrets at the token endpoint, spending limit fields, airline names.
 * One test process for these files: see ava.config.js.
 */
import '../pkce-code.test.js';
import '../resource-indicators.test.js';
import '../token-failed-auth.test.js';
import '../spending-limit-fields.test.js';
import '../airline-names.test.js';
