/**
 * The OpenAPI reference, REST errors, validation, the API key cache.
 * One test process for these files: see ava.config.js.
 */
import '../openapi-reference.test.js';
import '../rest-errors.test.js';
import '../validation.test.js';
import '../key-cache.test.js';
