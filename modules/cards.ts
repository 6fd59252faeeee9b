/**
 * Saved cards: the card vault (its adapter, and in sandbox mode its sandbox on a port of its own), the
 * payment processor's adapter (bookings will charge through it) and its sandbox, the payment methods'
 * service, their REST routes and agent tools, the card-capture browser component (and its demo page in
 * sandbox mode), and the sweeps of the sandboxes' expired rows.
 */
import crypto from 'node:crypto';
import { componentPageOrigins, type Config } from '../config.js';
import { SecretBox } from '../core/crypto/secret-box.js';
import { ProviderUnavailableError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { PaymentMethodService } from '../core/payment-methods/service.js';
import type { CardVault, PaymentProcessor } from '../core/ports.js';
import { CARD_TOOLS } from '../mcp/tools/index.js';
import { StripeProcessor } from '../providers/payments/adapter.js';
import { BasisTheoryVault } from '../providers/vault/adapter.js';
import { STYLESHEET_PATH } from '../authz/pages/html.js';
import { cardCaptureRoutes } from '../rest/routes/card-capture.js';
import { paymentMethodRoutes } from '../rest/routes/payment-methods.js';
import type { Capability, OwnPortApp, SharedPieces, Sweeper } from './capability.js';

export interface Cards extends Capability {
  paymentMethods: PaymentMethodService;
  vault: CardVault;
  /** Not called by any route yet: bookings will authorize, capture and refund through it. */
  processor: PaymentProcessor | undefined;
}

export async function cardsModule(shared: SharedPieces): Promise<Cards> {
  const { config, db, clock, logger } = shared;
  const vault = cardVaultOf(config, logger);
  const processor = config.processor ? new StripeProcessor({ baseUrl: config.processor.url, apiKey: config.processor.apiKey }) : undefined;
  const paymentMethods = new PaymentMethodService({ db: db.knex, clock, secrets: shared.secrets, vault, logger, hashKeys: shared.keys.cookieKeys });

  const sandboxes: NonNullable<Capability['sandboxes']> = [];
  const ownPortApps: OwnPortApp[] = [];
  const sweepers: Sweeper[] = [];
  // The sandboxes are loaded in sandbox mode only: a production start never reads their code.
  if (config.sandbox && config.vault?.port !== undefined) {
    const { sweepExpiredVaultSessions, vaultSandbox } = await import('../providers/vault/sandbox.js');
    const app = vaultSandbox({ db: db.knex, clock, secrets: new SecretBox(vaultSandboxKeys(shared.keys.dataEncryptionKeys)), serviceKeys: [config.vault.apiKey], logger });
    ownPortApps.push({ name: 'card vault sandbox', portVariable: 'VAULT_PORT', port: config.vault.port, app });
    sweepers.push(() => sweepExpiredVaultSessions(db.knex, clock));
  }
  if (config.sandbox && config.processor && config.vault) {
    const [{ DEFAULT_SLOW_CARD_DELAY_MS, processorSandbox }, { IdempotencyKeys }, { SANDBOX_PROCESSOR_VAULT_KEY }] = await Promise.all([
      import('../providers/payments/sandbox.js'),
      import('../providers/payments/sandbox-idempotency.js'),
      import('../providers/vault/sandbox.js'),
    ]);
    sandboxes.push(processorSandbox({ db: db.knex, clock, apiKeys: [config.processor.apiKey], vaultUrl: config.vault.url, vaultKey: SANDBOX_PROCESSOR_VAULT_KEY }));
    // The sandbox's own lifetime rule; the abandonment window does not matter to a sweep.
    const keys = new IdempotencyKeys({ db: db.knex, clock, abandonedAfterMs: DEFAULT_SLOW_CARD_DELAY_MS + 30_000 });
    sweepers.push(() => keys.sweepExpired());
  }
  return {
    paymentMethods,
    vault,
    processor,
    routes: [
      ...paymentMethodRoutes({ paymentMethods, users: shared.users, componentOrigins: componentPageOrigins(config) }),
      ...cardCaptureRoutes({ vaultUrl: vault.publicUrl || config.baseUrl, sandbox: config.sandbox, stylesheetPath: STYLESHEET_PATH }),
    ],
    tools: CARD_TOOLS,
    toolServices: { paymentMethods },
    sandboxes,
    ownPortApps,
    sweepers,
  };
}

/** The configured card vault (or its sandbox); without one, saved cards answer that they are unavailable. */
export function cardVaultOf(config: Config, logger: Logger): CardVault {
  return config.vault ? new BasisTheoryVault({ baseUrl: config.vault.url, apiKey: config.vault.apiKey, logger }) : unconfiguredVault;
}

/**
 * The vault sandbox's own keys: each data encryption key run through an HMAC with a label of its own, its
 * key id kept, so the sandbox's card data never opens with the service's key (nor the reverse), and both
 * rotate together.
 */
export function vaultSandboxKeys(dataEncryptionKeys: readonly string[]): string[] {
  return dataEncryptionKeys.map((entry) => {
    const match = /^([A-Za-z0-9_-]+):(.+)$/.exec(entry);
    const key = Buffer.from(match ? (match[2] as string) : entry, 'base64');
    const id = match ? (match[1] as string) : crypto.createHash('sha256').update(key).digest('base64url').slice(0, 8);
    return `${id}:${crypto.createHmac('sha256', key).update('card vault sandbox').digest('base64')}`;
  });
}

/** No vault configured (and not sandbox mode): saved cards answer that they are unavailable. */
const unconfiguredVault: CardVault = {
  publicUrl: '',
  openSession: () => Promise.reject(unavailable()),
  readCard: () => Promise.reject(unavailable()),
  updateCardDetails: () => Promise.reject(unavailable()),
  redact: () => Promise.reject(unavailable()),
};

function unavailable(): ProviderUnavailableError {
  return new ProviderUnavailableError('Saved cards are not available on this service just now: try again later.', 'payment_unavailable');
}
