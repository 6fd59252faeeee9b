/**
 * Shared pieces: bearer tokens, logging, migrations, money, secrets, signing keys, the benchmark's database.
 * One test process for these files: see ava.config.js.
 */
import '../bearer-verifier.test.js';
import '../logging.test.js';
import '../migrations.test.js';
import '../money.test.js';
import '../secret-box.test.js';
import '../signing-keys.test.js';
import '../bench-database.test.js';
