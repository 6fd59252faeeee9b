/**
 * `npm run build` (also run by `npm install`, through `prepare`, and before `npm test`): compiles every
 * TypeScript file of the project into dist/, in the same relative layout, as ES modules with source maps
 * beside them, and copies the other files the code reads at run time relative to `import.meta.url` (page
 * scripts, stylesheets, the providers' fixtures), so that dist/ runs on its own with plain `node`.
 *
 * esbuild transpiles file by file and checks no types (`npm run typecheck` does, with tsc): a full build
 * takes about two seconds, against half a minute for `tsc`. It is incremental: only files newer than their
 * output are compiled or copied again, and outputs whose source is gone are removed (a deleted test would
 * otherwise still run). A change of this script, of tsconfig.json or of esbuild rebuilds everything.
 * The folders are tsconfig.json's `include` list, so the build and the type check see the same files.
 *
 * Then `npm start`'s own build, dist/start/: the service (main.ts and what it loads) bundled with its
 * dependencies into some 60 files (bundleStart below).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'dist');
const STAMP = path.join(OUT, '.build-stamp');
const START = path.join(OUT, 'start');
const started = performance.now();

const tsconfigText = fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8');

/** Project-relative paths of the source files: tsconfig's folders, and the top-level `*.ts`. */
function sourceFiles() {
  const files = [];
  for (const entry of JSON.parse(tsconfigText).include) {
    if (entry === '*.ts') {
      for (const name of fs.readdirSync(ROOT)) if (name.endsWith('.ts')) files.push(name);
    } else {
      for (const name of fs.readdirSync(path.join(ROOT, entry), { recursive: true })) {
        const file = path.join(entry, name);
        if (fs.statSync(path.join(ROOT, file)).isFile()) files.push(file);
      }
    }
  }
  // Type declarations, the modules' glossaries and this script are not needed at run time.
  return files.filter((file) => !file.endsWith('.d.ts') && !file.endsWith('.md') && file !== path.join('scripts', 'build.mjs'));
}

/** Where a source file ends up in dist/: TypeScript as `.js`, anything else as it is. */
const outputOf = (file) => (file.endsWith('.ts') ? file.slice(0, -'.ts'.length) + '.js' : file);

const sources = sourceFiles();
const outputs = new Map();
for (const file of sources) {
  const output = outputOf(file);
  // page.ts beside a browser script page.js would both land on dist/…/page.js.
  if (outputs.has(output)) throw new Error(`${file} and ${outputs.get(output)} would both be built into dist/${output}: rename one`);
  outputs.set(output, file);
}

// Anything that changes every output: this script, the compiler options, esbuild itself.
const stamp = createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url))).update(tsconfigText).update(esbuild.version).digest('hex');
// Then every file is built again, over the old outputs: dist/ is not emptied first, so that tests running
// from it meanwhile (another terminal) do not see it vanish.
const fresh = !fs.existsSync(STAMP) || fs.readFileSync(STAMP, 'utf8') !== stamp;

// Outputs (and their source maps) whose source is gone.
if (fs.existsSync(OUT)) {
  for (const name of fs.readdirSync(OUT, { recursive: true })) {
    const target = path.join(OUT, name);
    // (A build running at the same time may have removed it already.)
    if (target === STAMP || target.startsWith(START + path.sep) || !fs.statSync(target, { throwIfNoEntry: false })?.isFile()) continue;
    const output = name.endsWith('.js.map') ? name.slice(0, -'.map'.length) : name;
    const source = outputs.get(output);
    if (!source || (name !== output && !source.endsWith('.ts'))) fs.rmSync(target, { force: true });
  }
}

const stale = (file) => {
  if (fresh) return true;
  const output = path.join(OUT, outputOf(file));
  return !fs.existsSync(output) || fs.statSync(output).mtimeMs < fs.statSync(path.join(ROOT, file)).mtimeMs;
};
const toCompile = sources.filter((file) => file.endsWith('.ts') && stale(file));
const toCopy = sources.filter((file) => !file.endsWith('.ts') && stale(file));

for (const file of toCopy) {
  fs.mkdirSync(path.dirname(path.join(OUT, file)), { recursive: true });
  fs.copyFileSync(path.join(ROOT, file), path.join(OUT, file));
}
if (toCompile.length > 0) {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: toCompile,
    outdir: OUT,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    // The oldest Node.js the project supports (package.json's engines).
    target: 'node20.19',
    // Maps in files beside the code, pointing at the TypeScript sources (not copied into them). Node.js
    // reads them only with --enable-source-maps, which is left off: it slows every error's stack.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
}
// The service never loads the tests or the benchmarks: a change there alone leaves the bundle as it is.
const serviceChanged = [...toCompile, ...toCopy].some((file) => !file.startsWith(`test${path.sep}`) && !file.startsWith(`bench${path.sep}`));
const bundled = serviceChanged || !fs.existsSync(path.join(START, 'main.js'));
if (bundled) await bundleStart();
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(STAMP, stamp);

/**
 * `npm start` runs dist/start/main.js: main.ts and the service's modules bundled with their dependencies.
 * Loading the service's ~1,250 modules one by one was over half of a start's CPU, most of it Node's
 * loader resolving, statting and reading files (issue 25); the bundle is some 60 files. Parts loaded on first
 * use (the tool endpoint) stay apart, as chunks loaded when asked for.
 *
 * - Our files that find their pages, scripts and fixtures relative to `import.meta.url` get the URL of
 *   their own compiled file in dist/ (where those were copied), not the bundle's.
 * - Dependencies that read their own files or start workers from their folder stay outside, loaded from
 *   node_modules as before: the embedded database (its WebAssembly and data), knex (it loads dialects by
 *   name), pg, pino (its transports run in workers) and ioredis (it finds its package.json by __dirname).
 *   The embedded database's worker runs its file of dist/ (core/db/embedded-worker.js).
 * - The tests, scripts and benchmarks run dist/'s own files.
 *
 * Outputs of earlier bundles are removed a day later, not at once: a service started from one loads its
 * parts on first use, maybe after this build.
 */
async function bundleStart() {
  const ownFileUrls = {
    name: 'own-file-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        // Every output of the bundle is in dist/start/, one folder below dist/.
        const compiledFile = `../${outputOf(path.relative(ROOT, args.path)).split(path.sep).join('/')}`;
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(compiledFile)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['main.ts'],
    outdir: START,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'knex', 'pg', 'pg-native', 'pino', 'ioredis'],
    // CommonJS dependencies inside an ES module still call require() for Node's own modules.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    plugins: [ownFileUrls],
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  });
  const written = new Set(Object.keys(result.metafile.outputs).map((output) => path.resolve(ROOT, output)));
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of fs.readdirSync(START)) {
    const file = path.join(START, name);
    if (!written.has(file) && fs.statSync(file).mtimeMs < dayAgo) fs.rmSync(file, { force: true });
  }
}

// On stderr: `npm run bench -- --json` builds first, and its stdout is for the figures alone.
const ms = Math.round(performance.now() - started);
const summary = `${toCompile.length} of ${sources.filter((file) => file.endsWith('.ts')).length} TypeScript files compiled, ${toCopy.length} files copied`;
console.error(`build: ${summary}${bundled ? ', the service bundled' : ''}, into dist/ in ${ms} ms${fresh ? ' (full build)' : ''}`);
