/**
 * `npm run admin -- sign-in-limits reset --email ADDRESS` (sandbox mode only): a developer who used up the
 * sign-in code budget of their test address gets codes again at once. Through the running service's admin
 * socket it clears the service's own counters (in memory or in Redis); opening the database itself, it
 * clears them in Redis, and says so when there is no Redis to clear. Outside sandbox mode it is refused.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { Redis } from 'ioredis';
import { isPage, TestBrowser } from './helpers/browser.js';
import { jsonOf } from './helpers/http.js';
import { registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { compiled } from './helpers/built.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { DEFAULT_TEST_REDIS_URL, startService, tempDir, uniquePrefix, type RunningService } from './helpers/service.js';
import { sendAdminCommand, startAdminSocket } from '../admin/socket.js';
import { AbuseLimits } from '../authz/abuse-limits.js';
import { RateLimitedError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';

const REDIS_URL = process.env.REDIS_URL || DEFAULT_TEST_REDIS_URL;

let running: RunningService;
let admin: { close(): Promise<void> };
let socketPath: string;
let database: TestDatabase;

test.before(async () => {
  running = await startService({}, { abusePolicy: { signInCodesPerAddress: { points: 2, duration: 3600 } } });
  // The socket main.ts opens, with the same deps.
  const dir = tempDir('tp-limits-admin-');
  admin = await startAdminSocket(dir, running.service.admin, createLogger('silent'));
  socketPath = path.join(dir, 'admin.sock');
  database = await createTestDatabase();
});
test.after.always(async () => {
  await admin?.close();
  await running?.close();
  await database?.drop();
});

async function askForCode(email: string) {
  const agent = await registerPublicClient(running);
  const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const page = await browser.open(authorization.url.href);
  if (!isPage(page)) throw new Error('expected the e-mail page');
  const answer = await browser.submit(page, '/email', { email });
  if (!isPage(answer)) throw new Error('expected a page');
  return answer;
}

async function mailsTo(email: string): Promise<unknown[]> {
  return jsonOf(await fetch(`${running.url}/sandbox/mail/messages?to=${encodeURIComponent(email)}`)) as Promise<unknown[]>;
}

function runCli(args: string[], env: Record<string, string | undefined>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: tempDir('tp-limits-cli-'), LOG_LEVEL: 'silent' };
  delete childEnv.REDIS_URL;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [compiled('scripts/admin.ts'), ...args], { env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test.serial('through the running service: an address out of codes gets a new one after the reset', async (t) => {
  const email = uniqueEmail();
  t.is((await askForCode(email)).status, 200);
  t.is((await askForCode(email)).status, 200);
  const refused = await askForCode(email);
  t.is(refused.status, 429);
  t.regex(refused.html, /Too many sign-in codes were sent to this address/);

  const reply = await sendAdminCommand(socketPath, ['sign-in-limits', 'reset', '--email', ` ${email.toUpperCase()} `]);
  t.true(reply.ok, JSON.stringify(reply.error));
  t.like(reply.result, { email: email.toLowerCase(), reset: true, counted_in: 'service_memory' });

  t.is((await askForCode(email)).status, 200);
  t.is((await mailsTo(email)).length, 3, 'a new code went out');
  // The address has its whole budget back, not one code.
  t.is((await askForCode(email)).status, 200);
  t.is((await askForCode(email)).status, 429);
});

test.serial('the command wants --email, and names itself in the usage', async (t) => {
  const missing = await sendAdminCommand(socketPath, ['sign-in-limits', 'reset']);
  t.false(missing.ok);
  t.regex(missing.error?.message ?? '', /--email is required/);
  t.regex(missing.error?.message ?? '', /sign-in-limits reset --email ADDRESS/);
});

test('every counter of the address is cleared: from each network, overall and the pace; other addresses keep theirs', async (t) => {
  for (const redis of [undefined, new Redis(REDIS_URL)]) {
    try {
      const limits = new AbuseLimits({
        redis,
        keyPrefix: uniquePrefix(),
        policy: {
          signInCodesPerAddress: { points: 1, duration: 3600 },
          signInCodesPerAddressOverall: { points: 2, duration: 3600 },
          signInCodePaceSeconds: 3600,
          signInCodesPerNetwork: { points: 100, duration: 900 },
        },
      });
      const email = uniqueEmail();
      const other = uniqueEmail();
      await limits.signInCode(email, '203.0.113.7');
      await limits.signInCode(email, '198.51.100.7');
      await limits.signInCode(email, '192.0.2.7'); // past the overall count: paced
      await limits.signInCode(other, '203.0.113.7');
      for (const network of ['203.0.113.7', '198.51.100.7', '192.0.2.7', '2001:db8::1']) {
        await t.throwsAsync(limits.signInCode(email, network), { instanceOf: RateLimitedError });
      }

      await limits.forgetAddress(email.toUpperCase());

      await t.notThrowsAsync(limits.signInCode(email, '203.0.113.7'), `${redis ? 'redis' : 'memory'}: the network's count for the address`);
      await t.notThrowsAsync(limits.signInCode(email, '198.51.100.7'), 'the overall count');
      await t.notThrowsAsync(limits.signInCode(email, '192.0.2.7'), 'the pace');
      await t.throwsAsync(limits.signInCode(other, '203.0.113.7'), { instanceOf: RateLimitedError }, 'another address keeps its count');
    } finally {
      redis?.disconnect();
    }
  }
});

test('opening the database itself, the command clears the counts in Redis', async (t) => {
  const redis = new Redis(REDIS_URL);
  try {
    // What every service instance counts in, under the default prefix.
    const limits = new AbuseLimits({ redis, policy: { signInCodesPerAddress: { points: 1, duration: 3600 } } });
    const email = uniqueEmail();
    await limits.signInCode(email, '203.0.113.7');
    await t.throwsAsync(limits.signInCode(email, '203.0.113.7'), { instanceOf: RateLimitedError });

    const cli = await runCli(['sign-in-limits', 'reset', '--email', email], { DATABASE_URL: database.url, REDIS_URL, SANDBOX: '1' });
    t.is(cli.status, 0, cli.stderr);
    t.like(JSON.parse(cli.stdout), { email, reset: true, counted_in: 'redis' });
    await t.notThrowsAsync(limits.signInCode(email, '203.0.113.7'));
  } finally {
    redis.disconnect();
  }
});

test('opening the database itself without Redis, the command says what it could not reach', async (t) => {
  const email = uniqueEmail();
  const cli = await runCli(['sign-in-limits', 'reset', '--email', email], { DATABASE_URL: database.url, SANDBOX: '1' });
  t.is(cli.status, 0, cli.stderr);
  const answer = JSON.parse(cli.stdout);
  t.like(answer, { email, reset: false });
  t.regex(answer.note, /memory of the running service/);
  t.regex(answer.note, /REDIS_URL/);
});

test('outside sandbox mode the command is refused', async (t) => {
  const cli = await runCli(['sign-in-limits', 'reset', '--email', uniqueEmail()], {
    DATABASE_URL: database.url,
    REDIS_URL,
    SANDBOX: '0',
    SMTP_URL: 'smtp://127.0.0.1:2525',
  });
  t.is(cli.status, 1);
  t.is(cli.stdout, '');
  t.regex(cli.stderr, /sandbox mode only/);
});
