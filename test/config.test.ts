import { spawnSync } from 'node:child_process';
import test from 'ava';
import { ConfigError, loadConfig } from '../config.js';
import { compiled } from './helpers/built.js';
import { assertTestDatabaseName } from './helpers/database.js';

test('defaults apply when nothing is set', (t) => {
  const config = loadConfig({});
  t.like(config, {
    env: 'development',
    port: 8080,
    baseUrl: 'http://localhost:8080',
    authUrl: 'http://localhost:8080',
    databaseUrl: undefined,
    redisUrl: undefined,
    sandbox: true,
    logLevel: 'info',
    apiKeyCacheSeconds: 30,
  });
  t.true(config.dataDir.endsWith('/.data'));
});

test('values are read and coerced; empty strings mean unset', (t) => {
  const config = loadConfig({ PORT: '9000', BASE_URL: 'https://api.example.com/', AUTH_URL: '', SANDBOX: '0', SMTP_URL: 'smtp://relay', REDIS_URL: 'redis://r:6379' });
  t.like(config, { port: 9000, baseUrl: 'https://api.example.com', authUrl: 'https://api.example.com', sandbox: false, redisUrl: 'redis://r:6379' });
});

test('a bad value throws one line naming the variable', (t) => {
  const error = t.throws(() => loadConfig({ PORT: 'eighty' }), { instanceOf: ConfigError });
  t.regex(error.message, /^Invalid configuration: PORT="eighty" /);
  t.false(error.message.includes('\n'));
  t.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), { message: /DATABASE_URL/ });
  t.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), { message: /LOG_LEVEL/ });
});

test('production refuses to run with the sandbox on, or without explicit keys', (t) => {
  const dataKey = Buffer.alloc(32, 7).toString('base64');
  const keys = {
    JWKS_PATH: '/run/secrets/jwks.json',
    COOKIE_KEYS: `${'a'.repeat(32)},${'b'.repeat(40)}`,
    DATA_ENCRYPTION_KEY: `k2:${dataKey},${dataKey}`,
    SMTP_URL: 'smtp://relay:587',
  };
  t.throws(() => loadConfig({ NODE_ENV: 'production', ...keys }), { instanceOf: ConfigError, message: /SANDBOX must be 0/ });
  t.throws(() => loadConfig({ NODE_ENV: 'production', SANDBOX: '0', SMTP_URL: keys.SMTP_URL }), {
    instanceOf: ConfigError,
    message: /JWKS_PATH, COOKIE_KEYS and DATA_ENCRYPTION_KEY are required/,
  });
  t.throws(() => loadConfig({ SANDBOX: '0' }), { instanceOf: ConfigError, message: /SMTP_URL is required when SANDBOX=0/ });
  const config = loadConfig({ NODE_ENV: 'production', SANDBOX: '0', ...keys });
  t.is(config.sandbox, false);
  t.deepEqual(config.cookieKeys, ['a'.repeat(32), 'b'.repeat(40)]);
  t.deepEqual(config.dataEncryptionKeys, [`k2:${dataKey}`, dataKey]);
  t.throws(() => loadConfig({ COOKIE_KEYS: 'short' }), { message: /^Invalid configuration: COOKIE_KEYS must be comma-separated secrets/ });
  const refused = t.throws(() => loadConfig({ DATA_ENCRYPTION_KEY: 'c2hvcnQ=' }), { message: /^Invalid configuration: DATA_ENCRYPTION_KEY must be/ });
  t.false(refused.message.includes('c2hvcnQ='), 'a key is never echoed');
});

test('the process stops with a non-zero exit and one line naming the bad variable', (t) => {
  const result = spawnSync(process.execPath, [compiled('main.ts')], {
    env: { ...process.env, PORT: 'not-a-port' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.not(result.status, 0);
  const lines = result.stderr.trim().split('\n');
  t.is(lines.length, 1, result.stderr);
  t.regex(lines[0] as string, /PORT="not-a-port"/);
});

test('the test setup refuses a database whose name lacks "test"', (t) => {
  t.throws(() => assertTestDatabaseName('postgres://postgres@127.0.0.1:5432/travel'), { message: /must contain "test"/ });
  t.is(assertTestDatabaseName('postgres://postgres@127.0.0.1:5432/travel_test'), 'travel_test');
});

test('a bad connection string is named but never echoed (it may hold a password)', (t) => {
  const error = t.throws(() => loadConfig({ DATABASE_URL: 'postgresql+asyncpg://app:s3cret@db/app' }), { instanceOf: ConfigError });
  t.regex(error.message, /DATABASE_URL must be a postgres:\/\//);
  t.false(error.message.includes('s3cret'));
});

test('the demo airline listens on PORT + 2 at AUTH_URL’s host name in sandbox mode; 0 or SANDBOX=0 turns it off; a clash is refused', (t) => {
  t.deepEqual(loadConfig({ PORT: '9000', AUTH_URL: 'http://localhost:9000' }).demoAirline, { url: 'http://localhost:9002', port: 9002 });
  t.deepEqual(loadConfig({ PORT: '9000', DEMO_AIRLINE_PORT: '9100' }).demoAirline, { url: 'http://localhost:9100', port: 9100 });
  t.is(loadConfig({ PORT: '0' }).demoAirline, undefined);
  t.is(loadConfig({ PORT: '9000', DEMO_AIRLINE_PORT: '0' }).demoAirline, undefined);
  t.is(loadConfig({ PORT: '9000', SANDBOX: '0', SMTP_URL: 'smtp://relay' }).demoAirline, undefined);
  t.throws(() => loadConfig({ PORT: '9000', DEMO_AIRLINE_PORT: '9000' }), { instanceOf: ConfigError, message: /DEMO_AIRLINE_PORT=9000 must differ from PORT/ });
  t.throws(() => loadConfig({ PORT: '9000', DEMO_AIRLINE_PORT: '9001' }), { instanceOf: ConfigError, message: /VAULT_PORT/ });
});

test('the demo travel agency listens on PORT + 3 at the other loopback name (another site); 0 or SANDBOX=0 turns it off; a clash is refused', (t) => {
  t.deepEqual(loadConfig({ PORT: '9000' }).demoTravel, { url: 'http://127.0.0.1:9003', port: 9003 });
  t.deepEqual(loadConfig({ PORT: '9000', BASE_URL: 'http://127.0.0.1:9000', DEMO_TRAVEL_PORT: '9100' }).demoTravel, { url: 'http://localhost:9100', port: 9100 });
  t.deepEqual(loadConfig({ PORT: '9000', AUTH_URL: 'https://sandbox.example.com' }).demoTravel, { url: 'https://sandbox.example.com:9003', port: 9003 });
  t.is(loadConfig({ PORT: '0' }).demoTravel, undefined);
  t.is(loadConfig({ PORT: '9000', DEMO_TRAVEL_PORT: '0' }).demoTravel, undefined);
  t.is(loadConfig({ PORT: '9000', SANDBOX: '0', SMTP_URL: 'smtp://relay' }).demoTravel, undefined);
  t.throws(() => loadConfig({ PORT: '9000', DEMO_TRAVEL_PORT: '9000' }), { instanceOf: ConfigError, message: /DEMO_TRAVEL_PORT=9000 must differ from PORT/ });
  t.throws(() => loadConfig({ PORT: '9000', DEMO_TRAVEL_PORT: '9001' }), { instanceOf: ConfigError, message: /VAULT_PORT/ });
  t.throws(() => loadConfig({ PORT: '9000', DEMO_TRAVEL_PORT: '9002' }), { instanceOf: ConfigError, message: /DEMO_AIRLINE_PORT/ });
});
