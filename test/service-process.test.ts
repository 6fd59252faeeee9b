/**
 * The service as a person runs it: `main.ts` on the embedded database with the sandbox on, the demo
 * partner, the admin command line going through the running service, a second process refused, and a
 * graceful stop on SIGTERM. Then the admin command line on DATABASE_URL.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import test from 'ava';
import { lockDataDirectory } from '../core/db/lock.js';
import { compiled } from './helpers/built.js';
import { createTestDatabase } from './helpers/database.js';
import { jsonOf } from './helpers/http.js';
import { tempDir } from './helpers/service.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function withoutDatabase(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [compiled(script), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `npm run -s <args>`, as a person pipes it into jq. */
function npmRun(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function startMain(env: NodeJS.ProcessEnv, command: string[] = [process.execPath, compiled('main.ts')]): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, args, { env });
  let output = '';
  child.stderr?.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line in time:\n${output}`)), 60_000);
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const match = /"port":(\d+),.*"msg":"listening"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`main.ts exited with ${code}:\n${output}`)));
  });
  return { child, port, output: () => output };
}

/** Logs are written asynchronously: wait (bounded) for a line to arrive. */
async function eventually(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

test.serial('npm start on a fresh data directory: embedded database, demo partner, admin through the service, graceful stop', async (t) => {
  const dataDir = tempDir('tp-main-');
  const env = withoutDatabase({ DATA_DIR: dataDir, PORT: '0', SANDBOX: '1', LOG_LEVEL: 'info' });
  const { child, port, output } = await startMain(env);
  const base = `http://127.0.0.1:${port}`;
  try {
    t.is((await fetch(`${base}/healthz`)).status, 200);
    t.is((await fetch(`${base}/readyz`)).status, 200);

    // The demo partner: shown once, kept in a file only the owner can read.
    const credentialsFile = path.join(dataDir, 'demo-credentials.json');
    const demo = JSON.parse(fs.readFileSync(credentialsFile, 'utf8'));
    t.is(fs.statSync(credentialsFile).mode & 0o777, 0o600);
    t.true(output().includes(`x-api-key: ${demo.api_key}`));
    const capabilities = `${base}/v1/flights/providers/provider_c/capabilities`;
    t.is((await fetch(capabilities, { headers: { 'x-api-key': demo.api_key } })).status, 200);
    // The request log names the partner but never carries the key.
    await eventually(() => /"path":"\/v1\/flights\/providers\/provider_c\/capabilities","status":200/.test(output()));
    t.is(output().split(demo.api_key).length - 1, 2, 'the key appears only in the banner');

    // The admin socket is private to the owner.
    t.is(fs.statSync(path.join(dataDir, 'admin.sock')).mode & 0o777, 0o600);
    const created = await run('scripts/admin.ts', ['partner', 'create', '--name', 'CLI Partner'], env);
    t.is(created.status, 0, created.stderr);
    const partner = JSON.parse(created.stdout);
    t.regex(partner.partner_id, /^[0-9a-f-]{36}$/);
    t.regex(partner.api_key, /^tpk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    t.is((await fetch(capabilities, { headers: { 'x-api-key': partner.api_key } })).status, 200);

    // An OAuth client of the partner: its secret works at the running service's token endpoint at once.
    const client = await run(
      'scripts/admin.ts',
      ['client', 'create', '--partner', partner.partner_id, '--name', 'CLI Air', '--redirect-uri', 'https://cli.example/cb'],
      env,
    );
    t.is(client.status, 0, client.stderr);
    const { client_id: clientId, client_secret: clientSecret } = JSON.parse(client.stdout);
    t.regex(clientId, /^[0-9a-f-]{36}$/);
    const exchange = await fetch(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=refresh_token&refresh_token=unknown',
    });
    t.is((await jsonOf(exchange)).error, 'invalid_grant', 'the client authenticated; only the token is unknown');
    const loopback = await run(
      'scripts/admin.ts',
      ['client', 'create', '--partner', partner.partner_id, '--name', 'CLI Air', '--redirect-uri', 'http://localhost:3000/cb'],
      env,
    );
    t.is(loopback.status, 1);
    t.regex(loopback.stderr, /invalid_redirect_uri/);
    // What to do instead: a public client may use a loopback redirect.
    t.regex(loopback.stderr, /--public/);

    const listed = await run('scripts/admin.ts', ['partner', 'list'], env);
    t.is(listed.status, 0, listed.stderr);
    t.deepEqual(
      JSON.parse(listed.stdout).map((p: { name: string }) => p.name),
      ['Demo partner (sandbox)', 'CLI Partner'],
    );
    t.false(listed.stdout.includes(partner.api_key), 'lists never show a key again');

    const revoked = await run('scripts/admin.ts', ['key', 'revoke', '--key', partner.key_id], env);
    t.is(revoked.status, 0, revoked.stderr);
    t.truthy(JSON.parse(revoked.stdout).revoked_at);
    t.is((await fetch(capabilities, { headers: { 'x-api-key': partner.api_key } })).status, 401);

    const wrong = await run('scripts/admin.ts', ['partner', 'create'], env);
    t.is(wrong.status, 1);
    t.is(wrong.stdout, '');
    t.regex(wrong.stderr, /--name is required/);

    // A second service on the same directory is refused instead of silently losing writes.
    const second = await run('main.ts', [], env);
    t.not(second.status, 0);
    t.regex(second.stderr, /is in use by another process/);
  } finally {
    child.kill('SIGTERM');
  }
  t.is(await exited(child), 0, output());
  t.regex(output(), /"msg":"stopped"/);
  // The directory is free again, and the admin socket is gone.
  await (await lockDataDirectory(dataDir)).release();
  t.false(fs.existsSync(path.join(dataDir, 'admin.sock')));

  // With the service stopped, the admin command line opens the database itself.
  const direct = await run('scripts/admin.ts', ['partner', 'list'], env);
  t.is(direct.status, 0, direct.stderr);
  t.is(JSON.parse(direct.stdout).length, 2);

  // A restart keeps the data and does not show the demo key again.
  const again = await startMain(env);
  try {
    t.false(again.output().includes('x-api-key:'));
  } finally {
    again.child.kill('SIGTERM');
  }
  t.is(await exited(again.child), 0);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test.serial('SIGTERM to the PID that `npm start` started stops the service gracefully, within the grace period; a second signal does not cut it short', async (t) => {
  const dataDir = tempDir('tp-npm-start-');
  const env = withoutDatabase({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', SHUTDOWN_GRACE_SECONDS: '2' });
  // What `kill $!`, systemd and container runtimes do: signal the process they started, npm here.
  const { child, port, output } = await startMain(env, ['npm', 'start']);
  try {
    const base = `http://127.0.0.1:${port}`;
    t.is((await fetch(`${base}/healthz`)).status, 200);
    // npm exec'd the service in place of its shell: the service is npm's only child.
    const service = Number(execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).trim());
    // A request in flight that outlasts the grace period (provider_b's sandbox answers it after 12 s)
    // keeps the service stopping for the whole grace period.
    const inFlight = fetch(`${base}/sandbox/flights/provider_b/air/offers/off_0000SANDBOXSLOW/actions/price`, {
      method: 'POST',
      headers: { authorization: 'Bearer duffel_test_stop', 'duffel-version': 'v2' },
    }).catch(() => 'cut');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const stopped = exited(child);
    child.kill('SIGTERM');
    // While it stops, the service gets another signal, as when a terminal's Ctrl-C reaches npm and the
    // service alike, or systemd signals every process of a unit: the graceful stop must go on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(service, 'SIGTERM');
    t.is(await stopped, 0, output());
    const took = Date.now() - started;
    t.true(took >= 1500 && took < 5000, `stopped after ${took} ms: the grace period of 2 s, not at once`);
    t.is(await inFlight, 'cut', 'the request still open when the grace period ended was cut');
    t.regex(output(), /"signal":"SIGTERM".*"msg":"stopping/);
    t.regex(output(), /grace period over/);
    t.regex(output(), /"msg":"stopped"/);
    // The service itself is gone, not only npm: its port is closed and its data directory is free.
    await t.throwsAsync(fetch(`${base}/healthz`));
    await (await lockDataDirectory(dataDir)).release();
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test.serial('a port in use stops the start with exit code 2 and one line naming PORT, before the demo partner is made', async (t) => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as net.AddressInfo;
  const dataDir = tempDir('tp-port-');
  try {
    const result = await run('main.ts', [], withoutDatabase({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }));
    t.is(result.status, 2);
    const lines = result.stderr.trim().split('\n').filter((line) => !line.startsWith('oidc-provider WARNING'));
    t.deepEqual(lines, [`PORT: ${port} is already in use on 127.0.0.1: stop the process holding it, or set PORT to a free port.`]);
    t.false(fs.existsSync(path.join(dataDir, 'demo-credentials.json')), 'no demo key was made and lost');
  } finally {
    holder.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test.serial('the admin command line on DATABASE_URL: plans, partners, keys, and errors on stderr', async (t) => {
  const database = await createTestDatabase();
  const env = { ...process.env, DATABASE_URL: database.url, DATA_DIR: tempDir('tp-admin-') };
  try {
    const plan = await run('scripts/admin.ts', ['plan', 'set', '--name', 'gold', '--rps', '100', '--burst', '200', '--per-day', '1000000'], env);
    t.is(plan.status, 0, plan.stderr);
    t.deepEqual(JSON.parse(plan.stdout), { id: 'gold', requests_per_second: 100, burst: 200, requests_per_day: 1_000_000 });

    const created = await run('scripts/admin.ts', ['partner', 'create', '--name', 'Gold Air', '--plan', 'gold', '--allow', 'getProviderCapabilities'], env);
    t.is(created.status, 0, created.stderr);
    const partner = JSON.parse(created.stdout);
    t.like(partner, { name: 'Gold Air', plan_id: 'gold' });

    const key = await run('scripts/admin.ts', ['key', 'create', '--partner', partner.partner_id], env);
    t.is(key.status, 0, key.stderr);
    t.not(JSON.parse(key.stdout).api_key, partner.api_key);

    const updated = await run('scripts/admin.ts', ['partner', 'update', '--partner', partner.partner_id, '--allow-all'], env);
    t.is(updated.status, 0, updated.stderr);
    t.is(JSON.parse(updated.stdout).allowed_operations, null);
    t.is(JSON.parse(updated.stdout).api_keys.length, 2);

    const unknownPlan = await run('scripts/admin.ts', ['partner', 'create', '--name', 'X', '--plan', 'platinum'], env);
    t.is(unknownPlan.status, 1);
    t.regex(unknownPlan.stderr, /no usage plan named platinum/);

    const badPlan = await run('scripts/admin.ts', ['plan', 'set', '--name', 'odd', '--rps', '10', '--burst', '5', '--per-day', '10'], env);
    t.is(badPlan.status, 1);
    t.regex(badPlan.stderr, /burst must be at least requests_per_second/);

    const unknownKey = await run('scripts/admin.ts', ['key', 'revoke', '--key', 'tpk_000000000000'], env);
    t.is(unknownKey.status, 1);
    t.regex(unknownKey.stderr, /No API key has the id or prefix/);

    const unknownCommand = await run('scripts/admin.ts', ['partner', 'explode'], env);
    t.is(unknownCommand.status, 1);
    t.regex(unknownCommand.stderr, /Unknown command "partner explode"[\s\S]*Usage:/);
  } finally {
    await database.drop();
  }
});

test.serial('`npm run -s admin` prints exactly one JSON document on stdout, and nothing there when it fails', async (t) => {
  const dataDir = tempDir('tp-admin-jq-');
  try {
    // A newcomer's first command: embedded database, fresh data directory (migrations, keys made).
    const listed = await npmRun(['admin', '--', 'partner', 'list'], withoutDatabase({ DATA_DIR: dataDir }));
    t.is(listed.status, 0, listed.stderr);
    t.is(listed.stdout, `${JSON.stringify(JSON.parse(listed.stdout), null, 2)}\n`, 'one JSON document and its newline, nothing else');

    // A failure the command did not foresee (a database that does not exist): its log line and message on stderr only.
    const missing = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/travel_test');
    missing.pathname = `/travel_test_missing_${process.pid}`;
    const failed = await npmRun(['admin', '--', 'partner', 'list'], { ...process.env, DATABASE_URL: missing.href, DATA_DIR: dataDir });
    t.is(failed.status, 1);
    t.is(failed.stdout, '');
    t.regex(failed.stderr, /failed/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
