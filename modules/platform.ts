/** What every deployment serves besides its capabilities: health and the discovery documents. */
import { healthRoutes } from '../rest/routes/health.js';
import { discoveryRoutes } from '../rest/routes/discovery.js';
import type { Capability, SharedPieces } from './capability.js';

export function platformModule(shared: SharedPieces): Capability {
  const { config, db } = shared;
  return {
    routes: [
      ...healthRoutes({ checkDatabase: async () => void (await db.knex.raw('select 1')) }),
      ...discoveryRoutes({ baseUrl: config.baseUrl, authUrl: config.authUrl }),
    ],
  };
}
