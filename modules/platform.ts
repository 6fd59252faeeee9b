/** What every deployment serves besides its capabilities: health and the discovery documents. */
import { healthRoutes } from '../rest/routes/health.js';
import { discoveryRoutes } from '../rest/routes/discovery.js';
import type { Capability, SharedPieces } from './capability.js';

/** Whether the instance is stopping: its readiness then fails, so that the load balancer sends no more. */
export interface Draining {
  draining: boolean;
}

export function platformModule(shared: SharedPieces, state: Draining): Capability {
  const { config, db } = shared;
  return {
    routes: [
      ...healthRoutes({ checkDatabase: async () => void (await db.knex.raw('select 1')), draining: () => state.draining }),
      ...discoveryRoutes({ baseUrl: config.baseUrl, authUrl: config.authUrl }),
    ],
  };
}
