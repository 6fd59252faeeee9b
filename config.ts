/**
 * Configuration from environment variables only, validated once at start-up. Every variable and its
 * default is listed in `.env.example`; keep the two in step.
 */
import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], { message: 'must be 1 or 0 (or true/false)' })
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

const url = z.url({ message: 'must be an absolute URL such as http://localhost:8080' });
const positiveInt = z.coerce.number({ message: 'must be a number' }).int('must be a whole number').positive('must be positive');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535, 'must be at most 65535').default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_URL: url.optional(),
  AUTH_URL: url.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  DATABASE_TRANSACTION_POOLER: flag.default(false),
  DATABASE_POOL_MAX: positiveInt.default(10),
  DATA_DIR: z.string().min(1).default('./.data'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, colons, dashes or underscores').optional(),
  SANDBOX: flag.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  API_KEY_CACHE_SECONDS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(3600).default(30),
  SHUTDOWN_GRACE_SECONDS: positiveInt.max(300).default(10),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0).max(120).default(0),
  TRUST_PROXY: flag.default(false),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).default('Travel Partner <no-reply@localhost>'),
  SANDBOX_URL: url.optional(),
  SMS_URL: url.optional(),
  VAULT_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535, 'must be at most 65535').optional(),
  DEMO_AIRLINE_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535, 'must be at most 65535').optional(),
  DEMO_TRAVEL_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535, 'must be at most 65535').optional(),
  VAULT_URL: url.optional(),
  VAULT_API_KEY: z.string().min(8).optional(),
  PROCESSOR_URL: url.optional(),
  PROCESSOR_API_KEY: z.string().min(8).optional(),
  COMPONENT_ORIGINS: z
    .string()
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
    .refine((origins) => origins.every(isOrigin), 'must be comma-separated origins such as https://www.example-airline.com')
    .optional(),
  CLIENT_METADATA_TEST_ORIGINS: z
    .string()
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
    .refine((origins) => origins.every((origin) => /^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(origin)), 'must be comma-separated origins of the form http://127.0.0.1:<port>')
    .optional(),
  JOB_POLL_SECONDS: z.coerce.number({ message: 'must be a number' }).min(0.5, 'must be at least 0.5').max(60, 'must be at most 60').default(2),
  WEBHOOK_RETRY_SECONDS: z
    .string()
    .transform((value) => value.split(',').map((part) => Number(part.trim())))
    .refine((delays) => delays.length >= 1 && delays.length <= 20 && delays.every((delay) => Number.isInteger(delay) && delay >= 1 && delay <= 86_400), 'must be comma-separated whole seconds, each from 1 to 86400, such as 5,300,1800')
    .optional(),
  BOOKING_FAULT_AFTER: z.enum(['pending', 'payment_authorized', 'booking_created', 'provider_paid', 'payment_captured', 'confirmed']).optional(),
  PROVIDER_A_URL: url.optional(),
  PROVIDER_A_TOKEN: z.string().min(8).optional(),
  PROVIDER_B_URL: url.optional(),
  PROVIDER_B_TOKEN: z.string().min(8).optional(),
  PROVIDER_C_URL: url.optional(),
  PROVIDER_C_TOKEN: z.string().min(8).optional(),
  PROVIDER_D_URL: url.optional(),
  PROVIDER_D_TOKEN: z.string().min(8).optional(),
  PROVIDER_E_URL: url.optional(),
  PROVIDER_E_TOKEN: z.string().min(8).optional(),
  JWKS_PATH: z.string().min(1).optional(),
  COOKIE_KEYS: z
    .string()
    .transform((value) => value.split(',').map((key) => key.trim()))
    .refine((keys) => keys.every((key) => key.length >= 32), 'must be comma-separated secrets of 32 characters or more')
    .optional(),
  DATA_ENCRYPTION_KEY: z
    .string()
    .transform((value) => value.split(',').map((key) => key.trim()))
    .refine((keys) => keys.every((key) => Buffer.from(key.replace(/^[A-Za-z0-9_-]+:/, ''), 'base64').length === 32), {
      message: 'must be comma-separated base64 keys of 32 bytes (optionally "id:key"), newest first',
    })
    .optional(),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  baseUrl: string;
  authUrl: string;
  /** Absent: the embedded PostgreSQL in `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * PostgreSQL itself, not through a pooler: migrations take a session's advisory lock there, which a
   * pooler in transaction mode cannot hold. Absent: `databaseUrl`.
   */
  databaseDirectUrl: string | undefined;
  /**
   * `databaseUrl` goes through a pooler in transaction mode (PgBouncer): a server connection is ours for
   * one transaction only, so no named prepared statement is kept on one.
   */
  databaseTransactionPooler: boolean;
  databasePoolMax: number;
  dataDir: string;
  redisUrl: string | undefined;
  /** Put before every key the service keeps in Redis: deployments (or test runs) sharing one Redis keep apart. */
  redisKeyPrefix: string | undefined;
  /** Serve the sandboxes of outside systems under /sandbox and seed the demo partner. */
  sandbox: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  apiKeyCacheSeconds: number;
  shutdownGraceSeconds: number;
  /**
   * After SIGTERM, how long the instance keeps serving while its readiness fails, before it closes its
   * port: longer than the load balancer takes to notice (its health checks' interval times their fall).
   */
  shutdownDrainSeconds: number;
  /** How often an idle instance looks for due background jobs of each kind. */
  jobPollSeconds: number;
  /** The retries of a failed webhook delivery; absent: decisions §14's schedule (tests shorten it). */
  webhookRetrySeconds: number[] | undefined;
  trustProxy: boolean;
  /** Mail relay; absent: mail goes to the mail sandbox (sandbox mode only). */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where the adapters reach the sandboxes over HTTP (this process serves them under /sandbox). */
  sandboxUrl: string;
  /** An SMS gateway speaking the SMS sandbox's dialect; absent: the sandbox, or no SMS when SANDBOX=0. */
  smsUrl: string | undefined;
  /**
   * The card vault: where browsers and the adapter reach it, and the service's private key. In sandbox
   * mode the process serves the vault sandbox itself on `port` (its own origin: card numbers never reach
   * the service's origin); otherwise `port` is undefined and the URL points at the real vault.
   */
  vault: { url: string; apiKey: string; port: number | undefined } | undefined;
  /**
   * Sandbox mode only: the demo airline ("Demo Air") that shows the recognition component end to end, on
   * a port of its own at AUTH_URL's host name (another origin, same site: decisions §11). Undefined when
   * not in sandbox mode or when its port is 0 (its registered redirect needs a known port).
   */
  demoAirline: { url: string; port: number } | undefined;
  /**
   * Sandbox mode only: the demo travel agency ("Demo Travel") that sells offers with the checkout button,
   * on a port of its own at the other loopback name than AUTH_URL's (another site: decisions §12).
   * Undefined when not in sandbox mode or when its port is 0 (its publishable key names its origin).
   */
  demoTravel: { url: string; port: number } | undefined;
  /** The payment processor (Stripe PaymentIntents dialect) and its secret key; in sandbox mode its sandbox. */
  processor: { url: string; apiKey: string } | undefined;
  /** Origins of partner pages that embed the card-capture component (CORS with the traveler's session). */
  componentOrigins: string[];
  /**
   * Tests only (NODE_ENV=test, decisions §9): the process dies right after a booking records this saga
   * step, so that recovery can be tested. Ignored in any other environment.
   */
  bookingFaultAfter: string | undefined;
  /**
   * Tests only (NODE_ENV=test): http://127.0.0.1:<port> origins whose client metadata documents the
   * authorization server fetches although they are plain http on a loopback address. Empty otherwise.
   */
  clientMetadataTestOrigins: string[];
  /** provider_a's API and token; absent: its sandbox (sandbox mode), or no calls to provider_a. */
  providerA: { url: string; token: string } | undefined;
  /** provider_b's API and token; absent: its sandbox (sandbox mode), or no calls to provider_b. */
  providerB: { url: string; token: string } | undefined;
  /** provider_c's NDC API and token; likewise. */
  providerC: { url: string; token: string } | undefined;
  /** provider_d's API and key; likewise. */
  providerD: { url: string; token: string } | undefined;
  /** provider_e's API and key; likewise. */
  providerE: { url: string; token: string } | undefined;
  /** RS256 private key set for tokens; absent: generated into DATA_DIR (not in production). */
  jwksPath: string | undefined;
  /** Cookie signing keys, newest first; absent: generated into DATA_DIR (not in production). */
  cookieKeys: string[] | undefined;
  /** AES-256-GCM keys for secrets at rest, newest first; absent: generated into DATA_DIR (not in production). */
  dataEncryptionKeys: string[] | undefined;
}

export class ConfigError extends Error {}

/** Reads and checks the environment; throws ConfigError with one line naming each bad variable. */
/** The service's own exact origins: the API's and the sign-in pages' (one when AUTH_URL is BASE_URL). */
export function ownOrigins(config: Pick<Config, 'baseUrl' | 'authUrl'>): string[] {
  return [...new Set([new URL(config.baseUrl).origin, new URL(config.authUrl).origin])];
}

/** The pages that may use the browser components on the traveler's session: ours and COMPONENT_ORIGINS. */
export function componentPageOrigins(config: Pick<Config, 'baseUrl' | 'authUrl' | 'componentOrigins'>): string[] {
  return [...new Set([...ownOrigins(config), ...config.componentOrigins])];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "not set", as in most .env tooling.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // Connection strings and keys can hold passwords: name the variable, never echo its value.
      const shown = /URL|KEY|SECRET|PASSWORD/.test(name) ? '' : `=${JSON.stringify(present[name] ?? '')}`;
      return `${name}${shown} ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}. See .env.example.`);
  }
  const e = parsed.data;
  const baseUrl = stripSlash(e.BASE_URL ?? `http://localhost:${e.PORT}`);
  const sandbox = e.SANDBOX ?? true;
  if (e.NODE_ENV === 'production' && sandbox) {
    throw new ConfigError('Invalid configuration: SANDBOX must be 0 when NODE_ENV=production (sandboxes are for development and tests).');
  }
  if (!sandbox && !e.SMTP_URL) {
    throw new ConfigError('Invalid configuration: SMTP_URL is required when SANDBOX=0 (sign-in codes are sent by e-mail).');
  }
  if (e.DATABASE_TRANSACTION_POOLER && (!e.DATABASE_URL || !e.DATABASE_DIRECT_URL)) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_TRANSACTION_POOLER=1 needs DATABASE_URL (through the pooler) and DATABASE_DIRECT_URL (PostgreSQL itself, for the migrations\' lock, which a pooler in transaction mode cannot hold).',
    );
  }
  if (e.NODE_ENV === 'production' && (!e.JWKS_PATH || !e.COOKIE_KEYS || !e.DATA_ENCRYPTION_KEY)) {
    throw new ConfigError(
      'Invalid configuration: JWKS_PATH, COOKIE_KEYS and DATA_ENCRYPTION_KEY are required when NODE_ENV=production (every instance must sign and encrypt with the same keys).',
    );
  }
  const sandboxUrl = stripSlash(e.SANDBOX_URL ?? `http://127.0.0.1:${e.PORT}/sandbox`);
  const vault = vaultSystem(e, baseUrl, sandbox);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    authUrl: stripSlash(e.AUTH_URL ?? baseUrl),
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    databaseTransactionPooler: e.DATABASE_TRANSACTION_POOLER,
    databasePoolMax: e.DATABASE_POOL_MAX,
    dataDir: path.resolve(e.DATA_DIR),
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    sandbox,
    logLevel: e.LOG_LEVEL,
    apiKeyCacheSeconds: e.API_KEY_CACHE_SECONDS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    jobPollSeconds: e.JOB_POLL_SECONDS,
    webhookRetrySeconds: e.WEBHOOK_RETRY_SECONDS,
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sandboxUrl,
    smsUrl: e.SMS_URL ? stripSlash(e.SMS_URL) : undefined,
    vault,
    demoAirline: demoAirlineOf(e, stripSlash(e.AUTH_URL ?? baseUrl), sandbox, vault?.port),
    demoTravel: demoTravelOf(e, stripSlash(e.AUTH_URL ?? baseUrl), sandbox, vault?.port),
    processor: systemOf(e.PROCESSOR_URL, e.PROCESSOR_API_KEY, sandbox, 'PROCESSOR_URL', 'PROCESSOR_API_KEY', `${sandboxUrl}/payments`, SANDBOX_PROCESSOR_KEY),
    componentOrigins: e.COMPONENT_ORIGINS ?? [],
    bookingFaultAfter: e.NODE_ENV === 'test' ? e.BOOKING_FAULT_AFTER : undefined,
    clientMetadataTestOrigins: e.NODE_ENV === 'test' ? (e.CLIENT_METADATA_TEST_ORIGINS ?? []) : [],
    providerA: providerSystem(e.PROVIDER_A_URL, e.PROVIDER_A_TOKEN, sandbox, 'provider_a', `${sandboxUrl}/flights/provider_a`, 'amadeus_test_sandbox'),
    providerB: providerSystem(e.PROVIDER_B_URL, e.PROVIDER_B_TOKEN, sandbox, 'provider_b', `${sandboxUrl}/flights/provider_b`, 'duffel_test_sandbox'),
    providerC: providerSystem(e.PROVIDER_C_URL, e.PROVIDER_C_TOKEN, sandbox, 'provider_c', `${sandboxUrl}/flights/provider_c`, 'ndc_test_sandbox'),
    providerD: providerSystem(e.PROVIDER_D_URL, e.PROVIDER_D_TOKEN, sandbox, 'provider_d', `${sandboxUrl}/flights/provider_d`, 'kiwi_test_sandbox'),
    providerE: providerSystem(e.PROVIDER_E_URL, e.PROVIDER_E_TOKEN, sandbox, 'provider_e', `${sandboxUrl}/flights/provider_e`, 'liteapi_test_sandbox'),
    jwksPath: e.JWKS_PATH,
    cookieKeys: e.COOKIE_KEYS,
    dataEncryptionKeys: e.DATA_ENCRYPTION_KEY,
  };
}

/** A provider's system: as configured, else its sandbox in sandbox mode, else none. */
function providerSystem(
  url: string | undefined,
  token: string | undefined,
  sandbox: boolean,
  name: string,
  sandboxUrl: string,
  sandboxToken: string,
): { url: string; token: string } | undefined {
  if (url && token) return { url: stripSlash(url), token };
  if (url || token) {
    throw new ConfigError(`Invalid configuration: set both ${name.toUpperCase()}_URL and ${name.toUpperCase()}_TOKEN, or neither.`);
  }
  return sandbox ? { url: sandboxUrl, token: sandboxToken } : undefined;
}

/** The service's key to the vault sandbox, and the processor sandbox's key (sandbox keys are not secrets). */
export const SANDBOX_VAULT_KEY = 'key_test_sandbox_service';
export const SANDBOX_PROCESSOR_KEY = 'sk_test_sandbox_processor';

/**
 * The card vault: as configured, else (sandbox mode) the vault sandbox on VAULT_PORT, default PORT + 1,
 * at the API's host name on that port: another origin than the API's, as a real vault's would be.
 */
function vaultSystem(e: z.infer<typeof EnvSchema>, baseUrl: string, sandbox: boolean): Config['vault'] {
  const configured = systemOf(e.VAULT_URL, e.VAULT_API_KEY, false, 'VAULT_URL', 'VAULT_API_KEY', '', '');
  if (configured) return { ...configured, port: undefined };
  if (!sandbox) return undefined;
  const port = e.VAULT_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 1);
  if (port === e.PORT && port !== 0) throw new ConfigError(`Invalid configuration: VAULT_PORT=${port} must differ from PORT (the vault has its own origin).`);
  const url = new URL(baseUrl);
  url.port = String(port);
  return { url: url.origin, apiKey: SANDBOX_VAULT_KEY, port };
}

/**
 * The demo airline: on DEMO_AIRLINE_PORT, default PORT + 2 (PORT + 1 is the vault sandbox's), 0 (off)
 * when PORT is 0, at AUTH_URL's host name so that the first-party session cookie reaches the recognition
 * frame on plain http (same site, decisions §11).
 */
function demoAirlineOf(e: z.infer<typeof EnvSchema>, authUrl: string, sandbox: boolean, vaultPort: number | undefined): Config['demoAirline'] {
  if (!sandbox) return undefined;
  const port = e.DEMO_AIRLINE_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 2);
  if (port === 0) return undefined;
  if (port === e.PORT) throw new ConfigError(`Invalid configuration: DEMO_AIRLINE_PORT=${port} must differ from PORT (the demo airline has its own origin).`);
  if (port === vaultPort) {
    throw new ConfigError(`Invalid configuration: DEMO_AIRLINE_PORT=${port} must differ from the card vault sandbox's port (VAULT_PORT).`);
  }
  const url = new URL(authUrl);
  url.port = String(port);
  return { url: url.origin, port };
}

/**
 * The demo travel agency: on DEMO_TRAVEL_PORT, default PORT + 3, 0 (off) when PORT is 0. Its page must be
 * another *site* than the checkout's, as a partner's is, so that the checkout is shown working without
 * third-party cookies: on a loopback AUTH_URL it takes the other loopback name (`localhost` for
 * `127.0.0.1` and the reverse); on any other host name it can only be another origin of the same host.
 */
function demoTravelOf(e: z.infer<typeof EnvSchema>, authUrl: string, sandbox: boolean, vaultPort: number | undefined): Config['demoTravel'] {
  if (!sandbox) return undefined;
  const port = e.DEMO_TRAVEL_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 3);
  if (port === 0) return undefined;
  const taken: Array<[number | undefined, string]> = [
    [e.PORT, 'PORT (the demo travel agency has its own origin)'],
    [vaultPort, "the card vault sandbox's port (VAULT_PORT)"],
    [e.DEMO_AIRLINE_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 2), "the demo airline's port (DEMO_AIRLINE_PORT)"],
  ];
  for (const [other, name] of taken) {
    if (port === other) throw new ConfigError(`Invalid configuration: DEMO_TRAVEL_PORT=${port} must differ from ${name}.`);
  }
  const url = new URL(authUrl);
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : ['127.0.0.1', '[::1]'].includes(url.hostname) ? 'localhost' : url.hostname;
  url.port = String(port);
  return { url: url.origin, port };
}

/** An outside system's URL and key: both as configured, else its sandbox in sandbox mode, else none. */
function systemOf(
  url: string | undefined,
  key: string | undefined,
  sandbox: boolean,
  urlName: string,
  keyName: string,
  sandboxUrl: string,
  sandboxKey: string,
): { url: string; apiKey: string } | undefined {
  if (url && key) return { url: stripSlash(url), apiKey: key };
  if (url || key) throw new ConfigError(`Invalid configuration: set both ${urlName} and ${keyName}, or neither.`);
  return sandbox ? { url: sandboxUrl, apiKey: sandboxKey } : undefined;
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

function stripSlash(value: string): string {
  return value.replace(/\/+$/, '');
}
