/**
 * Encryption of secrets at rest (decisions §1): AES-256-GCM under a key with an id, so that keys can
 * rotate. The newest key encrypts; every key still decrypts what it encrypted. A sealed value is one
 * string, `v1.<key id>.<iv>.<ciphertext+tag>` (base64url parts), safe in a text column or a JSON payload.
 * `context` binds a value to where it belongs (a table and row, say): a sealed value copied elsewhere
 * does not open.
 */
import { createCipheriv, createDecipheriv, createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  /** Key objects made once: handing a Buffer to every cipher made Node.js build one each time. */
  readonly #keys: Map<string, KeyObject>;
  readonly #current: string;

  /** `keys`: base64 keys of 32 bytes, each optionally `id:key`, newest first. */
  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new Error('SecretBox needs at least one key');
    this.#keys = new Map(keys.map(parseKey));
    this.#current = parseKey(keys[0] as string)[0];
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#keys.get(this.#current) as KeyObject, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.#current, iv.toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, keyId, iv, body] = sealed.split('.');
    const key = keyId === undefined ? undefined : this.#keys.get(keyId);
    if (version !== VERSION || !key || !iv || !body) {
      throw new Error(`A sealed secret cannot be opened: unknown format or key id "${keyId}" (is DATA_ENCRYPTION_KEY missing an older key?)`);
    }
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(`${VERSION}.`);
  }
}

/** `id:base64` or `base64` (the id is then derived from the key, so it is stable across restarts). */
function parseKey(entry: string): [string, KeyObject] {
  const match = /^([A-Za-z0-9_-]+):(.+)$/.exec(entry);
  const encoded = match ? (match[2] as string) : entry;
  const key = Buffer.from(encoded, 'base64');
  if (key.length !== 32) throw new Error('Every data encryption key must be 32 bytes (base64).');
  const id = match ? (match[1] as string) : createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return [id, createSecretKey(key)];
}
