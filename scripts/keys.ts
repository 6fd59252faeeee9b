/**
 * `npm run -s keys -- <directory>`: the secrets every instance of a deployment shares, made once: the
 * token signing key set (`jwks.json`, for JWKS_PATH) and `keys.env` (COOKIE_KEYS and DATA_ENCRYPTION_KEY),
 * both readable by their owner only. Refuses to overwrite: new keys would log every traveler out and leave
 * the secrets sealed with the old ones unreadable (rotate instead: README, "Configuration").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSigningKeys } from '../authz/keys.js';

const directory = process.argv[2];
if (!directory) {
  console.error('Usage: npm run -s keys -- <directory>   (writes jwks.json and keys.env there)');
  process.exit(2);
}
const jwksFile = path.join(directory, 'jwks.json');
const envFile = path.join(directory, 'keys.env');
const existing = [jwksFile, envFile].filter((file) => fs.existsSync(file));
if (existing.length > 0) {
  console.error(`${existing.join(' and ')} already exist: keys are made once per deployment. Delete them first only if nothing uses them yet.`);
  process.exit(1);
}
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-keys-'));
try {
  const keys = await loadSigningKeys({ jwksPath: undefined, cookieKeys: undefined, dataDir: scratch, production: false });
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  fs.writeFileSync(jwksFile, `${JSON.stringify(keys.jwks, null, 2)}\n`, { mode: 0o600 });
  fs.writeFileSync(envFile, `COOKIE_KEYS=${keys.cookieKeys.join(',')}\nDATA_ENCRYPTION_KEY=${keys.dataEncryptionKeys.join(',')}\n`, { mode: 0o600 });
  console.log(JSON.stringify({ jwks: jwksFile, env: envFile }));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
