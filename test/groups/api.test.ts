/**
 * The REST API's surface: capabilities, discovery, the error catalog and its docs, the reach of offers.
 * One test process for these files: see ava.config.js.
 */
import '../capabilities-and-openapi.test.js';
import '../discovery.test.js';
import '../error-catalog.test.js';
import '../error-docs.test.js';
import '../offer-reach.test.js';
