/**
 * ava's settings. The tests run compiled: `npm test` builds dist/ first (scripts/build.mjs, only what
 * changed), then ava runs the compiled test files (dist/test/, `*.test.js`) with plain `node`, no
 * TypeScript loader. One file: `npm test -- dist/test/offers.test.js`.
 * Test files run four at a time, each in its own process. Many of them mostly wait (providers' timeouts,
 * child processes, serial browser steps): those start first, so that the rest run beside them instead of
 * after them.
 */
const LONG_FIRST = [
  'service-process',
  'readme-examples',
  'booking-recovery',
  'booking-failures',
  'provider-contract',
  'provider-d',
  'booking-contract',
  'embedded-database',
  'hosted-pages-browser',
  'card-capture-browser',
  'hosted-session-browser',
  'booking-holds',
  'mcp-inspector',
  'mcp-conformance',
  'agent-purchase',
  'purchase-confirmation-browser',
  'spending-limits-browser',
  'recognition-browser',
  'hosted-checkout-providers-browser',
  'hosted-checkout-browser',
  'checkout-button-e2e-browser',
];

const rank = (file) => {
  const index = LONG_FIRST.findIndex((name) => file.endsWith(`/${name}.test.js`));
  return index === -1 ? LONG_FIRST.length : index;
};

export default {
  files: ['dist/test/**/*.test.js'],
  timeout: '2m',
  concurrency: 4,
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, [], { numeric: true }),
};
