/**
 * Sandbox mode only: "Demo Travel", the demo travel agency that sells an offer of each provider with the
 * checkout button (decisions §12), its backend confirming each sale over real HTTP. Served on
 * DEMO_TRAVEL_PORT at another site than the service (config.ts). Its partner and keys (a secret key, and
 * a publishable key listing its origin) are made on its first page, not at start: on a fresh
 * installation the demo partner of the quick start comes first (main.ts makes it only while there is no
 * partner at all), and a service whose demo nobody opens makes no keys.
 */
import type { PartnerService } from '../core/partners/service.js';
import type { DemoTravelKeys } from '../demo/travel/app.js';
import type { Capability, SharedPieces } from './capability.js';

export async function demoTravelModule(shared: SharedPieces, pieces: { partners: PartnerService }): Promise<Capability> {
  const { config } = shared;
  if (!config.sandbox || !config.demoTravel) return {};
  // Loaded only when served: a production start never reads the demo's code.
  const [{ demoTravelApp }, { ensureDemoTravelPartner }] = await Promise.all([import('../demo/travel/app.js'), import('../seeds/demo-travel-partner.js')]);
  const origin = config.demoTravel.url;
  let pending: Promise<DemoTravelKeys> | undefined;
  const keys = {
    get(): Promise<DemoTravelKeys> {
      pending ??= ensureDemoTravelPartner(pieces.partners, config.dataDir, origin).then(
        (credentials) => ({ secretKey: credentials.secret_key, publishableKey: credentials.publishable_key }),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    reset(): void {
      pending = undefined;
    },
  };
  const app = demoTravelApp({ baseUrl: config.baseUrl, origin, authUrl: config.authUrl, sandboxUrl: config.sandboxUrl, keys, logger: shared.logger });
  return { ownPortApps: [{ name: 'demo travel agency', portVariable: 'DEMO_TRAVEL_PORT', port: config.demoTravel.port, app }] };
}
