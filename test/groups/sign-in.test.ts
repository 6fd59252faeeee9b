/**
 * The hosted pages, their properties, sign-in codes and pages.
 * One test process for these files: see ava.config.js.
 */
import '../hosted-pages.test.js';
import '../hosted-pages-properties.test.js';
import '../sign-in-codes.test.js';
import '../sign-in-pages.test.js';
