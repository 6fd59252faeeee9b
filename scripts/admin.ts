/**
 * `npm run admin -- <command>`: partner onboarding, usage plans, and (sandbox mode) sign-in limits. With
 * the embedded database and a running service, the command goes through the service's admin socket (the
 * service holds the data directory); otherwise it opens the database itself.
 */
import fs from 'node:fs';
import { pino } from 'pino';
import { runAdminCommand, type SignInLimitsReset } from '../admin/commands.js';
import { adminSocketPath, describeAdminError, sendAdminCommand, type AdminReply } from '../admin/socket.js';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirectoryLockedError } from '../core/db/lock.js';
import { createLogger } from '../core/logger.js';

// stdout carries the command's JSON alone (it is piped into jq): the log goes to stderr.
const logger = createLogger('error', pino.destination({ dest: 2, sync: true }));

async function main(argv: string[]): Promise<AdminReply> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    const socketPath = adminSocketPath(config.dataDir);
    if (fs.existsSync(socketPath)) {
      try {
        return await sendAdminCommand(socketPath, argv);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A socket file with nobody behind it: the service is not running, so open the database ourselves.
        if (code !== 'ECONNREFUSED' && code !== 'ENOENT') throw error;
      }
    }
  }
  // Only a command that opens the database itself loads the database, the keys and the services: through
  // the socket the command starts in a fraction of the time (the README's examples run it often).
  const [{ openDatabase }, { migrateToLatest }, { seedReferenceData }, { PartnerService }, { PaymentMethodService }, { cardVaultOf }, { loadSigningKeys }, { PartnerClientRegistry }, { systemClock }, { SecretBox }] =
    await Promise.all([
      import('../core/db/database.js'),
      import('../core/db/migrate.js'),
      import('../seeds/index.js'),
      import('../core/partners/service.js'),
      import('../core/payment-methods/service.js'),
      import('../modules/cards.js'),
      import('../authz/keys.js'),
      import('../authz/partner-clients.js'),
      import('../core/clock.js'),
      import('../core/crypto/secret-box.js'),
    ]);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrateToLatest(db.knex, config.databaseUrl);
    await seedReferenceData(db.knex);
    const partners = new PartnerService(db.knex, { sandbox: config.sandbox });
    const keys = await loadSigningKeys({ ...config, production: config.env === 'production' });
    const secrets = new SecretBox(keys.dataEncryptionKeys);
    const clients = new PartnerClientRegistry({ db: db.knex, clock: systemClock, secrets, partners });
    const paymentMethods = new PaymentMethodService({ db: db.knex, clock: systemClock, secrets, vault: cardVaultOf(config, logger), logger, hashKeys: keys.cookieKeys });
    // Without Redis the sign-in limits are counted in a service's memory, which only its socket reaches.
    const signInLimits = config.redisUrl ? redisSignInLimits(config.redisUrl) : undefined;
    return { ok: true, result: await runAdminCommand(argv, { partners, clients, paymentMethods, sandbox: config.sandbox, signInLimits }) };
  } catch (error) {
    return { ok: false, error: describeAdminError(error, logger, 'the log line above has the details') };
  } finally {
    await db.close();
  }
}

/** The counts every instance shares in Redis, under the service's own key prefix; connected only when used. */
function redisSignInLimits(url: string): SignInLimitsReset {
  return {
    countedIn: 'redis',
    async forgetAddress(email) {
      const [{ Redis }, { AbuseLimits }] = await Promise.all([import('ioredis'), import('../authz/abuse-limits.js')]);
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
      // connect() rejects with the error; this only keeps ioredis from printing it a second time.
      redis.on('error', () => {});
      try {
        await redis.connect();
        await new AbuseLimits({ redis }).forgetAddress(email);
      } finally {
        redis.disconnect();
      }
    },
  };
}

try {
  const reply = await main(process.argv.slice(2));
  if (reply.ok) {
    process.stdout.write(`${JSON.stringify(reply.result, null, 2)}\n`);
  } else {
    process.stderr.write(`${reply.error?.message ?? 'The command failed.'}\n`);
    if (reply.error?.fields) process.stderr.write(`${JSON.stringify(reply.error.fields, null, 2)}\n`);
    process.exitCode = 1;
  }
} catch (error) {
  const known = error instanceof ConfigError || error instanceof DataDirectoryLockedError;
  process.stderr.write(`${known ? (error as Error).message : `The command failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}
