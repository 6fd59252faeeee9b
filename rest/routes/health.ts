import { z } from 'zod';
import { HttpProblem } from '../problems.js';
import { defineRoute, type Route } from '../route-table.js';

const Health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export function healthRoutes(deps: { checkDatabase(): Promise<void> }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      operationId: 'getHealth',
      summary: 'Liveness: the process is up',
      tags: ['Operations'],
      auth: 'none',
      responses: { 200: { description: 'The process answers.', schema: Health } },
      handler: () => ({ body: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      operationId: 'getReadiness',
      summary: 'Readiness: the database answers',
      tags: ['Operations'],
      auth: 'none',
      responses: { 200: { description: 'Ready to serve requests.', schema: Health } },
      errors: [503],
      async handler() {
        try {
          await deps.checkDatabase();
        } catch {
          throw new HttpProblem(503, 'not_ready', 'The database does not answer yet: retry shortly.');
        }
        return { body: { status: 'ok' } };
      },
    }),
  ];
}
