/**
 * ava's settings. The tests run compiled: `npm test` builds dist/ first (scripts/build.mjs, only what
 * changed), then ava runs the compiled test files (dist/test/, `*.test.js`) with plain `node`, no
 * TypeScript loader. One file: `npm test -- dist/test/offers.test.js`.
 *
 * Each test file runs in its own process, and most of a short file's CPU is that process loading the
 * service's ~1,800 modules and warming them up (~2 s of CPU, on a 2-core machine where the whole suite is
 * CPU-bound). So the whole suite runs most files several to a process: each file of test/groups/ imports
 * a few test files, whose tests then run together in one process, and `npm test` runs the group instead
 * of its files (named on the command line, a file runs alone as before). Files stay out of the groups
 * when they would disturb the others' tests or be disturbed by them: they launch Chromium or child
 * processes, run the embedded database, change process-wide state, or time what they wait for (an
 * upper bound on a wait fails when the process is busy with other files' tests). A file in no group
 * runs alone, so a new file does until it is put in a group.
 *
 * Four processes at a time. Many files mostly wait (providers' timeouts, child processes, serial browser
 * steps): those start first, so that the rest run beside them instead of after them.
 */
import fs from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const LONG_FIRST = [
  'service-process',
  'readme-examples',
  'booking-recovery',
  'checkout-button-e2e-browser',
  'booking-failures',
  'provider-contract',
  'provider-d',
  'booking-contract',
  'embedded-database',
  'embedded-schema-image',
  'hosted-checkout-browser',
  'hosted-pages-browser',
  'card-capture-browser',
  'hosted-session-browser',
  'mcp-inspector',
  'mcp-conformance',
  'agent-purchase',
  'purchase-confirmation-browser',
  'spending-limits-browser',
  'recognition-browser',
  'hosted-checkout-providers-browser',
  // Three instances, HAProxy, PgBouncer and a load of bookings: after the browser files have started,
  // so that its load does not meet all of them at their start.
  'topology',
  'webhooks',
  'job-runner',
];

/** The test files each group of test/groups/ imports, by group: `import '../<name>.test.js';` lines. */
export function testGroups() {
  const folder = new URL('test/groups/', import.meta.url);
  if (!fs.existsSync(folder)) return new Map();
  const groups = new Map();
  const seen = new Set();
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.test.ts')).sort()) {
    const source = fs.readFileSync(new URL(file, folder), 'utf8');
    const members = [...source.matchAll(/^import '\.\.\/([\w-]+)\.test\.js';$/gm)].map((match) => match[1]);
    for (const name of members) {
      // Its tests would run twice.
      if (seen.has(name)) throw new Error(`test/groups/${file}: ${name} is in another group already`);
      seen.add(name);
    }
    groups.set(file.slice(0, -'.test.ts'.length), members);
  }
  return groups;
}

// Files named on the command line (`npm test -- dist/test/offers.test.js`) run as they are, grouped or
// not: only a run of the whole suite leaves the groups' members to their groups.
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && fs.existsSync(arg));
const grouped = named ? [] : [...testGroups().values()].flat();

/** The long-waiting files first, then the groups (the most CPU each), then the other files. */
const rank = (file) => {
  const index = LONG_FIRST.findIndex((name) => file.endsWith(`/${name}.test.js`));
  if (index !== -1) return index;
  return file.includes('/test/groups/') ? LONG_FIRST.length : LONG_FIRST.length + 1;
};

export default {
  files: ['dist/test/**/*.test.js', ...grouped.map((name) => `!dist/test/${name}.test.js`)],
  timeout: '2m',
  concurrency: 4,
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, [], { numeric: true }),
};
