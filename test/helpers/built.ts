/**
 * Where the tests find the project and its build. The tests run compiled, from dist/test/ (`npm test`
 * builds first), and start the service and the scripts as plain JavaScript from the same build, as
 * `npm start` and `npm run admin` do, no TypeScript loader: the service from its bundle (SERVICE_ENTRY),
 * the scripts from their files.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
// This file is dist/test/helpers/built.js in the build (test/helpers/built.ts in the sources, when a
// TypeScript loader runs a test file directly): either way the build is the project's dist/.
const builtHere = here.endsWith('.js');

/** The project's directory: package.json, README.md and the TypeScript sources. */
export const PROJECT_DIR = path.resolve(path.dirname(here), builtHere ? '../../..' : '../..');

/** The build, dist/. */
export const BUILD_DIR = path.join(PROJECT_DIR, 'dist');

/** What `npm start` runs: the service's bundle, dist/start/main.js (scripts/build.mjs, bundleStart). */
export const SERVICE_ENTRY = path.join(BUILD_DIR, 'start', 'main.js');

/**
 * The compiled file node runs for a source: `compiled('scripts/admin.ts')` is the absolute path of
 * dist/scripts/admin.js. The service, `compiled('main.ts')`, is what `npm start` runs: its bundle.
 */
export function compiled(source: string): string {
  if (source === 'main.ts') return SERVICE_ENTRY;
  return path.join(BUILD_DIR, source.replace(/\.ts$/, '.js'));
}
