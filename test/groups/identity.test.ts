/**
 * Identity resolution, its properties, the recognition frame, purchase confirmations by the tool.
 * One test process for these files: see ava.config.js.
 */
import '../identity-properties.test.js';
import '../identity-resolve.test.js';
import '../recognition-frame.test.js';
import '../mcp-confirmation.test.js';
