import { setTimeout } from 'node:timers/promises';
import { z } from 'zod';
import { HttpProblem } from '../problems.js';
import { defineRoute, type Route } from '../route-table.js';

const READINESS_TIMEOUT_MS = 2000;

const Health = z.object({ status: z.literal('ok') }).meta({ id: 'Health', examples: [{ status: 'ok' }] });

export function healthRoutes(deps: { checkDatabase(): Promise<void>; draining(): boolean }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      operationId: 'getHealth',
      summary: 'Liveness: the process is up',
      description: 'Answers as long as the process runs, whatever the database does: for a liveness probe. No credentials.',
      tags: ['Operations'],
      auth: 'none',
      responses: { 200: { description: 'The process answers.', schema: Health } },
      handler: () => ({ body: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      operationId: 'getReadiness',
      summary: 'Readiness: the database answers, and the instance is not stopping',
      description:
        'Answers 200 once the database answers within 2 s, 503 `not_ready` otherwise: for a readiness probe or a load balancer. From SIGTERM on it is 503 `shutting_down` while the instance still serves for SHUTDOWN_DRAIN_SECONDS, so that the balancer stops sending it requests before it closes. No credentials.',
      tags: ['Operations'],
      auth: 'none',
      responses: { 200: { description: 'Ready to serve requests.', schema: Health } },
      errors: [503],
      async handler() {
        if (deps.draining()) throw new HttpProblem(503, 'shutting_down', 'This instance is stopping: send requests to another one.');
        // A database that hangs must make the probe fail, not hang with it.
        const timer = new AbortController();
        try {
          await Promise.race([
            deps.checkDatabase(),
            setTimeout(READINESS_TIMEOUT_MS, undefined, { signal: timer.signal }).then(() => Promise.reject(new Error('timeout'))),
          ]);
        } catch {
          throw new HttpProblem(503, 'not_ready', 'The database does not answer yet: retry shortly.');
        } finally {
          timer.abort();
        }
        return { body: { status: 'ok' } };
      },
    }),
  ];
}
