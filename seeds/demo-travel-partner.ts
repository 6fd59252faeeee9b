/**
 * The sandbox's demo travel agency ("Demo Travel") as a partner: a secret key for its backend (offers,
 * confirming sales) and a publishable key listing its page's origin for its checkout buttons. The keys
 * are shown nowhere and kept in DATA_DIR/demo-travel-credentials.json (readable by the owner only), so a
 * restart reuses them; keys that no longer work there (revoked, another database, another port) are
 * replaced, and the partner is found again by its name rather than made twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PartnerIdentity } from '../core/partners/schemas.js';
import type { PartnerService } from '../core/partners/service.js';

export const DEMO_TRAVEL_PARTNER_NAME = 'Demo Travel (sandbox)';

export interface DemoTravelCredentials {
  partner_id: string;
  /** For the demo's backend only. */
  secret_key: string;
  /** In the demo's page, for its checkout buttons; it lists `origin`. */
  publishable_key: string;
  origin: string;
  created_at: string;
}

export function demoTravelCredentialsPath(dataDir: string): string {
  return path.join(dataDir, 'demo-travel-credentials.json');
}

/** Demo Travel's keys for a page at `origin`: those kept in `dataDir` while they still work, new ones otherwise. */
export async function ensureDemoTravelPartner(partners: PartnerService, dataDir: string, origin: string): Promise<DemoTravelCredentials> {
  const file = demoTravelCredentialsPath(dataDir);
  const saved = readSaved(file);
  const secret = saved ? await identify(partners, saved.secret_key) : undefined;
  const publishable = saved ? await identify(partners, saved.publishable_key) : undefined;
  const secretWorks = secret?.keyKind === 'secret' && secret.partnerId === saved?.partner_id;
  const publishableWorks = publishable?.keyKind === 'publishable' && publishable.partnerId === saved?.partner_id && (publishable.allowedOrigins ?? []).includes(origin);
  if (saved && secretWorks && publishableWorks) return saved;

  let partnerId = secretWorks ? (saved?.partner_id as string) : undefined;
  let secretKey = secretWorks ? (saved?.secret_key as string) : undefined;
  if (!partnerId) {
    const known = (await partners.listPartners()).find((partner) => partner.name === DEMO_TRAVEL_PARTNER_NAME);
    if (known) partnerId = known.partner_id;
    else {
      const created = await partners.createPartner({ name: DEMO_TRAVEL_PARTNER_NAME });
      partnerId = created.partner_id;
      secretKey = created.api_key;
    }
  }
  secretKey ??= (await partners.createKey(partnerId)).api_key;
  // A working key of ours for another origin (the port changed) is of no use to anyone: it goes.
  if (publishable?.keyKind === 'publishable' && publishable.partnerId === partnerId && !publishableWorks) {
    await partners.revokeKey(publishable.keyId).catch(() => undefined);
  }
  const publishableKey = publishableWorks ? (saved?.publishable_key as string) : (await partners.createPublishableKey({ partner_id: partnerId, allowed_origins: [origin] })).api_key;
  const credentials: DemoTravelCredentials = { partner_id: partnerId, secret_key: secretKey, publishable_key: publishableKey, origin, created_at: new Date().toISOString() };
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}

function readSaved(file: string): DemoTravelCredentials | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DemoTravelCredentials>;
    const strings = [value.partner_id, value.secret_key, value.publishable_key, value.origin];
    return strings.every((item) => typeof item === 'string') ? (value as DemoTravelCredentials) : undefined;
  } catch {
    return undefined;
  }
}

async function identify(partners: PartnerService, apiKey: string): Promise<PartnerIdentity | undefined> {
  try {
    return await partners.authenticate(apiKey);
  } catch {
    return undefined;
  }
}
