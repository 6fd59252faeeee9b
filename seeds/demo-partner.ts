/**
 * In sandbox mode, a fresh data directory gets a demo partner so that `npm start` is usable at once. Its
 * key is shown once and kept in DATA_DIR/demo-credentials.json (readable by the owner only).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PartnerService } from '../core/partners/service.js';

export interface DemoCredentials {
  partner_id: string;
  api_key: string;
  created_at: string;
}

export function demoCredentialsPath(dataDir: string): string {
  return path.join(dataDir, 'demo-credentials.json');
}

/**
 * Creates the demo partner on a fresh installation: a data directory without credentials and a database
 * without partners (a shared database that already has partners gets no extra live key). Returns it only
 * when it was just created.
 */
export async function ensureDemoPartner(partners: PartnerService, dataDir: string): Promise<DemoCredentials | undefined> {
  const file = demoCredentialsPath(dataDir);
  if (fs.existsSync(file) || (await partners.listPartners()).length > 0) return undefined;
  const created = await partners.createPartner({ name: 'Demo partner (sandbox)' });
  const credentials: DemoCredentials = {
    partner_id: created.partner_id,
    api_key: created.api_key,
    created_at: new Date().toISOString(),
  };
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}
