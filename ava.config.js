/**
 * ava's settings. Test files run four at a time, each in its own process (tsx compiles the TypeScript).
 * Many of them mostly wait (providers' timeouts, child processes, serial browser steps): those start
 * first, so that the rest run beside them instead of after them.
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
  const index = LONG_FIRST.findIndex((name) => file.endsWith(`/${name}.test.ts`));
  return index === -1 ? LONG_FIRST.length : index;
};

export default {
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  files: ['test/**/*.test.ts'],
  timeout: '2m',
  concurrency: 4,
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, [], { numeric: true }),
};
