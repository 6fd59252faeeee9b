/**
 * A provider's sandbox on its own HTTP server with its clock stopped at a given moment: what it serves on
 * another day, to compare with today's. Close them all in `test.after.always`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import Koa from 'koa';
import type { Json } from './http.js';
import type { RunningService } from './service.js';

type SandboxFactory = (deps: { db: RunningService['service']['db']['knex']; clock: { now(): Date } }) => Router;

export class SandboxesAt {
  readonly #servers: http.Server[] = [];

  /** The base URL of `sandbox` (mounted under `/sandbox/flights/<provider>`) with its clock at `now`. */
  async at(running: RunningService, sandbox: SandboxFactory, provider: string, now: string): Promise<string> {
    const app = new Koa();
    app.use(sandbox({ db: running.service.db.knex, clock: { now: () => new Date(now) } }).routes());
    const server = http.createServer(app.callback());
    this.#servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/flights/${provider}`;
  }

  async close(): Promise<void> {
    for (const server of this.#servers) server.closeAllConnections();
    await Promise.all(this.#servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Every leaf where two JSON values differ, by path. */
export function jsonDifferences(a: Json, b: Json, path = ''): [string, unknown, unknown][] {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b ? [] : [[path, a, b]];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((key) => jsonDifferences(a[key], b[key], `${path}/${key}`));
}
