/**
 * With the embedded database the running service holds the data directory, so the admin command line
 * reaches it through the service: a Unix socket in DATA_DIR, readable and writable by the directory's
 * owner only. One JSON request per connection, one JSON reply.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DomainError, ValidationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { runAdminCommand, type AdminDeps } from './commands.js';

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, 'admin.sock');
}

export interface AdminReply {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string; fields?: unknown };
}

const MAX_REQUEST_BYTES = 64 * 1024;

const IDLE_TIMEOUT_MS = 30_000;

export async function startAdminSocket(dataDir: string, deps: AdminDeps, logger: Logger): Promise<{ close(): Promise<void> }> {
  const socketPath = adminSocketPath(dataDir);
  // The data directory lock proves no other service owns this socket: a leftover file is stale.
  fs.rmSync(socketPath, { force: true });
  const connections = new Set<net.Socket>();
  // allowHalfOpen: a client may end its side after the request and still read the reply.
  const server = net.createServer({ allowHalfOpen: true }, (connection) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    // A client that never finishes its request must not hold the service's stop open.
    connection.setTimeout(IDLE_TIMEOUT_MS, () => connection.destroy());
    let request = '';
    let answered = false;
    connection.setEncoding('utf8');
    connection.on('data', async (chunk: string) => {
      request += chunk;
      if (request.length > MAX_REQUEST_BYTES) return connection.destroy();
      if (answered || !request.includes('\n')) return;
      answered = true;
      const reply = await answer(request, deps, logger);
      connection.end(`${JSON.stringify(reply)}\n`);
    });
    connection.on('error', () => connection.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  // Only the owner of the data directory may talk to the service through it.
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const connection of connections) connection.destroy();
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

async function answer(request: string, deps: AdminDeps, logger: Logger): Promise<AdminReply> {
  try {
    const { argv } = JSON.parse(request.slice(0, request.indexOf('\n'))) as { argv?: unknown };
    if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string')) {
      throw new ValidationError([], 'The admin request must be {"argv": [strings]}.');
    }
    return { ok: true, result: await runAdminCommand(argv, deps) };
  } catch (error) {
    return { ok: false, error: describeAdminError(error, logger) };
  }
}

/** `detailsAt` says where the logger writes: the service's log, or the command's own stderr. */
export function describeAdminError(error: unknown, logger: Logger, detailsAt = 'the service log has the details'): NonNullable<AdminReply['error']> {
  if (error instanceof ValidationError) {
    return Object.keys(error.fields).length > 0
      ? { code: error.code, message: error.message, fields: error.fields }
      : { code: error.code, message: error.message };
  }
  if (error instanceof DomainError) return { code: error.code, message: error.message };
  logger.error({ err: error }, 'admin command failed');
  return { code: 'internal_error', message: `The command failed unexpectedly; ${detailsAt}.` };
}

/** Sends one command to a running service. Rejects with ENOENT/ECONNREFUSED when none listens. */
export function sendAdminCommand(socketPath: string, argv: string[], timeoutMs = 60_000): Promise<AdminReply> {
  return new Promise((resolve, reject) => {
    const connection = net.connect(socketPath);
    connection.setTimeout(timeoutMs, () => connection.destroy(new Error('The service did not answer the admin command in time.')));
    let reply = '';
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.write(`${JSON.stringify({ argv })}\n`));
    connection.on('data', (chunk: string) => (reply += chunk));
    connection.on('end', () => {
      try {
        resolve(JSON.parse(reply) as AdminReply);
      } catch {
        reject(new Error('The service answered the admin command with something that is not JSON.'));
      }
    });
    connection.on('error', reject);
  });
}
