/**
 * `npm run build && node dist/bench/refresh-bench.js [seconds] [rounds] [--profile]`: the refresh grant
 * alone, the service's (app-server.ts) against oidc-provider's bare (oidc-bare-server.ts), in alternating
 * rounds of the same load as `npm run bench` (keep-alive connections), each with its server's CPU time
 * per request: a quicker and steadier A/B of this one row than the whole bench.
 * With --profile, each server is profiled (bench/profile-hook.mjs) over one more round of its own, and
 * the functions with the most self time are printed side by side, in µs a request, so that what the
 * service does per refresh beyond the library shows frame by frame. Profiles go to PROFILE_DIR
 * (default /tmp/profiles).
 * With --also=<path of another build's bench/app-server.js> (a copy of dist/ with some files as they were,
 * say), that service is measured too, in the same rounds: a before/after under the same load.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { cpuOf, median } from './servers.js';

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const seconds = Number(args[0] ?? 5);
const rounds = Number(args[1] ?? 3);
const profiling = process.argv.includes('--profile');
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const dir = process.env.PROFILE_DIR ?? '/tmp/profiles';

interface Server {
  name: string;
  child: ChildProcess;
  options: autocannon.Options;
}

/** A benchmark server from the build beside this file, with the profiling hook when profiling. */
async function start(name: string, file: URL, tokenPath: string): Promise<Server> {
  const hook = new URL('./profile-hook.mjs', import.meta.url).href;
  const child = fork(file, [], {
    execArgv: profiling ? ['--import', hook] : [],
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Record<string, string>>((resolve, reject) => {
    const onReady = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('ready' in message)) return;
      child.off('message', onReady);
      resolve((message as { ready: Record<string, string> }).ready);
    };
    child.on('message', onReady);
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return {
    name,
    child,
    options: {
      url: `http://127.0.0.1:${ready.port}${tokenPath}`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: ready.clientAuthorization as string },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: ready.refreshToken as string }).toString(),
      connections,
    },
  };
}

async function measure(server: Server, duration: number) {
  const cpuBefore = await cpuOf(server.child);
  const result = await autocannon({ ...server.options, duration });
  const cpu = (await cpuOf(server.child)) - cpuBefore;
  return { rps: result.requests.average, requests: result.requests.total, cpuMicros: cpu / result.requests.total, failed: result.non2xx + result.errors };
}

const also = process.argv.find((arg) => arg.startsWith('--also='))?.slice('--also='.length);
const bare = await start('bare oidc-provider', new URL('./oidc-bare-server.js', import.meta.url), '/token');
const service = await start('service', new URL('./app-server.js', import.meta.url), '/v1/oauth/token');
const servers = [bare, service];
if (also) servers.push(await start('service (--also)', pathToFileURL(path.resolve(also)), '/v1/oauth/token'));
console.log(`Node.js ${process.version}; ${rounds} alternating rounds of ${seconds} s, ${connections} connections${profiling ? ' (profiling hook loaded)' : ''}`);
for (const server of servers) await measure(server, 2);
// What a server spends with no request at all (timers, background jobs): under a slow, shared machine it
// is spread over few requests, so it is shown apart.
for (const server of servers) {
  const before = await cpuOf(server.child);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  console.log(`  ${server.name} idle: ${(((await cpuOf(server.child)) - before) / 2000).toFixed(0)} ms of CPU a second`);
}
const ratios: number[][] = [];
const cpu = new Map<Server, number[]>(servers.map((server) => [server, []]));
for (let round = 0; round < rounds; round++) {
  const figures: Awaited<ReturnType<typeof measure>>[] = [];
  for (const server of servers) {
    const figure = await measure(server, seconds);
    cpu.get(server)?.push(figure.cpuMicros);
    figures.push(figure);
    console.log(`  round ${round + 1} ${server.name.padEnd(18)} ${figure.rps.toFixed(0).padStart(6)} req/s  ${figure.cpuMicros.toFixed(0).padStart(5)} µs CPU a request  ${figure.failed} failed`);
  }
  ratios.push(figures.slice(1).map((figure) => figure.rps / (figures[0]?.rps ?? 1)));
}
servers.slice(1).forEach((server, index) => {
  const of = ratios.map((round) => round[index] as number);
  console.log(`${server.name} / bare: ${median(of).toFixed(2)} (rounds: ${of.map((ratio) => ratio.toFixed(2)).join(' ')}); CPU µs a request, median: ${median(cpu.get(server) ?? []).toFixed(0)} (bare ${median(cpu.get(bare) ?? []).toFixed(0)})`);
});

if (profiling) {
  fs.mkdirSync(dir, { recursive: true });
  const tables: Awaited<ReturnType<typeof profile>>[] = [];
  for (const server of [bare, service]) tables.push(await profile(server));
  const width = 70;
  console.log(`\nself time, µs a request (100 µs samples)\n${`${bare.name} (${tables[0]?.total.toFixed(0)} µs)`.padEnd(width)}  ${service.name} (${tables[1]?.total.toFixed(0)} µs)`);
  for (let row = 0; row < 40; row++) {
    const cell = (index: number) => {
      const entry = tables[index]?.rows[row];
      return entry ? `${entry[1].toFixed(1).padStart(6)}  ${entry[0]}`.slice(0, width).padEnd(width) : ''.padEnd(width);
    };
    console.log(`${cell(0)}  ${cell(1)}`);
  }
}
for (const server of servers) server.child.disconnect();

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }

/** One round under the profiler: the self time of each function, in µs a request. */
async function profile(server: Server): Promise<{ total: number; rows: [string, number][] }> {
  const reply = (key: string) =>
    new Promise<unknown>((resolve) => {
      const listener = (message: unknown) => {
        if (typeof message !== 'object' || message === null || !(key in message)) return;
        server.child.off('message', listener);
        resolve((message as Record<string, unknown>)[key]);
      };
      server.child.on('message', listener);
    });
  const profiled = reply('profile');
  const started = reply('profiling');
  server.child.send('profile-start');
  await started;
  const { requests } = await measure(server, seconds);
  server.child.send('profile-stop');
  const whole = (await profiled) as { nodes: ProfileNode[] };
  const file = path.join(dir, `refresh-${server === bare ? 'bare' : 'service'}-${Date.now()}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(whole));
  console.log(`profile: ${file}`);
  const self = new Map<string, number>();
  let busy = 0;
  for (const node of whole.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(root)') continue;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/dist\//, '')}:${lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (node.hitCount ?? 0));
    busy += node.hitCount ?? 0;
  }
  const perRequest = (samples: number) => (samples * 100) / requests;
  return { total: perRequest(busy), rows: [...self].sort((a, b) => b[1] - a[1]).map(([name, samples]) => [name, perRequest(samples)]) };
}
