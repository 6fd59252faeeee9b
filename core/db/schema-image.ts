/**
 * The embedded database's prepared schema: a PGlite data directory that went through initdb and every
 * migration, made once per machine for a given list of migrations, and copied into each new data
 * directory. A fresh start then skips initdb and the migrations, which take seconds on a small machine;
 * knex finds the migrations recorded as run in the copy, exactly as if they had run there.
 *
 * The image is keyed by PGlite's version, by the migrations (names and code) and by what else it holds
 * (the job runner's schema, by pg-boss's version): a new or changed migration, another PGlite or another
 * pg-boss makes a new image and leaves the old one unused. It lives in the user's
 * cache directory ($XDG_CACHE_HOME, else ~/.cache), outside any data directory, so every new data
 * directory on the machine shares it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrations } from './migrations/index.js';

// Raised when what an image holds changes in a way the key does not see (the settings it was made with).
const IMAGE_FORMAT = 1;
// Images kept: a few, so that switching between branches with other migrations does not rebuild each time.
const KEPT_IMAGES = 3;
// A build this old was left by a process that died: nobody will finish it.
const ABANDONED_BUILD_MS = 60 * 60 * 1000;

export function schemaImageDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'travel-partner', 'embedded-schema');
}

/** Changes with PGlite's version, with any migration's name or code, and with `extra` (what else the image holds). */
export function schemaImageKey(list: typeof migrations = migrations, extra = ''): string {
  const hash = createHash('sha256').update(`format ${IMAGE_FORMAT}\npglite ${pgliteVersion()}\nextra ${extra}\n`);
  for (const [name, migration] of list) hash.update(`${name}\n${String(migration.up)}\n${String(migration.down)}\n`);
  return hash.digest('hex').slice(0, 20);
}

/**
 * The path of the image for today's migrations, made first if there is none (by `build`, which fills
 * the data directory it is given as a migrated embedded database and stops it cleanly). Undefined when
 * it can neither be found nor made (a cache directory we may not write, say): the caller then builds
 * the database the slow way, in place, which also shows any error the migrations raise.
 */
export async function schemaImage(build: (dataDir: string) => Promise<void>, extraKey = '', env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const directory = schemaImageDirectory(env);
  const image = path.join(directory, schemaImageKey(migrations, extraKey));
  if (isDatabase(image)) return image;
  let building: string | undefined;
  try {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    building = fs.mkdtempSync(path.join(directory, '.building-'));
    await build(building);
    try {
      // Atomic: a start never sees half an image. Two processes may build at once; the first one to
      // finish wins, and the other's is as good.
      fs.renameSync(path.join(building, 'pgdata'), image);
    } catch (error) {
      if (!isDatabase(image)) throw error;
    }
    removeOldImages(directory);
    return image;
  } catch {
    return undefined;
  } finally {
    if (building) fs.rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Copies the image into `pgDataDir`, which must not exist yet. The copy is made beside it and renamed,
 * so that a start interrupted half-way leaves no half database for the next one to open.
 */
export function copySchemaImage(image: string, pgDataDir: string): void {
  const partial = `${pgDataDir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(image, partial, { recursive: true });
  fs.renameSync(partial, pgDataDir);
}

/** Each image is some 40 MB: only the newest few stay, and builds that processes left unfinished go. */
function removeOldImages(directory: string): void {
  const entries = fs.readdirSync(directory).map((name) => ({ name, modified: fs.statSync(path.join(directory, name)).mtimeMs }));
  const images = entries.filter((entry) => !entry.name.startsWith('.')).sort((a, b) => b.modified - a.modified);
  const abandoned = entries.filter((entry) => entry.name.startsWith('.building-') && Date.now() - entry.modified > ABANDONED_BUILD_MS);
  for (const entry of [...images.slice(KEPT_IMAGES), ...abandoned]) fs.rmSync(path.join(directory, entry.name), { recursive: true, force: true });
}

function isDatabase(pgDataDir: string): boolean {
  return fs.existsSync(path.join(pgDataDir, 'PG_VERSION'));
}

function pgliteVersion(): string {
  // The package does not export its package.json: it sits beside the folder of its entry point (dist/index.js).
  const manifest = fileURLToPath(new URL('../package.json', import.meta.resolve('@electric-sql/pglite')));
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}
