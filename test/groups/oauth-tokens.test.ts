/**
 * Sign-in through the authorization server, tokens, pairwise ids, client metadata documents; provider_c's adapter.
 * One test process for these files: see ava.config.js.
 */
import '../oauth-sign-in.test.js';
import '../oauth-tokens.test.js';
import '../pairwise-ids.test.js';
import '../client-metadata-documents.test.js';
import '../provider-c.test.js';
