/**
 * Settings of the Node.js process that must be in place before the code they concern loads: main.ts
 * applies them first of all, and the embedded database's worker again (a no-op then) for the scripts and
 * tests that open it without main.ts.
 */
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';

/**
 * V8's settings. They are the process's, and part of what the compile cache checks a cached module
 * against: set before any module compiles, they are the same at every point of every start, and the
 * cache holds (set later, by a thread while another loads modules, they made it reject some).
 *
 * - The embedded PostgreSQL (WebAssembly) runs on V8's baseline compiler, Liftoff, only. By default V8
 *   also recompiles the functions a start runs hot with its optimizing compiler, in the background: on a
 *   2-core machine some 2.5 s of CPU competing with the service's own start, and 500 MB of compiler
 *   memory for several seconds, to make a development database's millisecond queries no faster that we
 *   could measure. Set at run time, --liftoff-only does not bring its implications: the two tiering
 *   flags are named too.
 * - The gc extension, for the collection after the start (memory.ts). Only contexts made after this see
 *   it: not the main thread's, where the service's code runs.
 */
export function applyV8Settings(): void {
  v8.setFlagsFromString('--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering --expose-gc');
}

/**
 * Node's compile cache keeps V8's compiled code of every module loaded after this call on disk, so that
 * later starts skip compiling them (Node 22.1 and later; Node 20 starts without). It lives in the user's
 * cache folder, beside the embedded database's prepared schema, which outlives a reboot unlike the
 * temporary folder Node picks by default. NODE_COMPILE_CACHE, when set, chooses the folder instead, and
 * NODE_DISABLE_COMPILE_CACHE turns the cache off. A folder that cannot be written is reported by Node's
 * return value, not thrown: the service then starts without the cache.
 */
export function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: (directory?: string) => unknown }).enableCompileCache;
  if (!enable) return;
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  enable(process.env.NODE_COMPILE_CACHE ? undefined : path.join(cacheHome, 'travel-partner', 'compile-cache'));
}
