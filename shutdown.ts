/**
 * A graceful stop of the HTTP server: accept no new connections, let requests in flight finish, close
 * keep-alive connections as soon as they are idle (they would otherwise hold the server open until they
 * time out), and cut whatever is still open when the grace period ends.
 */
import type http from 'node:http';

const IDLE_SWEEP_MS = 50;

export async function stopServer(server: http.Server, graceMs: number, onForced?: () => void): Promise<void> {
  const forced = setTimeout(() => {
    onForced?.();
    server.closeAllConnections();
  }, graceMs);
  // A connection whose request finishes after close() turns idle then: sweep until none is left.
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  } finally {
    clearTimeout(forced);
    clearInterval(sweep);
  }
}
