/**
 * `npm run bench`: the capabilities route behind the API key check, the usage limiter and request
 * logging, against a bare Koa app returning the same JSON, measured in the same run. Each server runs in
 * its own process so that its CPU time per request can be read; autocannon drives them with keep-alive
 * connections in interleaved rounds, and the medians are compared.
 *
 * BENCH_SECONDS (default 5) per round, BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 10).
 * DATABASE_URL selects PostgreSQL for the service; otherwise it uses the embedded database.
 */
import { fork, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const GOAL = 0.6;

interface Server {
  name: string;
  child: ChildProcess;
  url: string;
  headers: Record<string, string>;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpuMicrosPerRequest: number;
  non2xx: number;
}

async function startServer(name: string, script: string): Promise<Server> {
  const child = fork(new URL(script, import.meta.url), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<{ port: number; apiKey?: string }>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { ready: { port: number; apiKey?: string } }).ready));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return {
    name,
    child,
    url: `http://127.0.0.1:${ready.port}/v1/flights/providers/provider_a/capabilities`,
    headers: ready.apiKey ? { 'x-api-key': ready.apiKey } : {},
  };
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message) => {
      const { cpu } = message as { cpu: NodeJS.CpuUsage };
      resolve(cpu.user + cpu.system);
    });
    child.send('cpu');
  });
}

async function measure(server: Server, duration: number): Promise<Round> {
  const cpuBefore = await cpuOf(server.child);
  const result = await autocannon({ url: server.url, headers: server.headers, connections, duration, pipelining: 1 });
  const cpuAfter = await cpuOf(server.child);
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicrosPerRequest: requests > 0 ? (cpuAfter - cpuBefore) / requests : NaN,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function summarize(results: Round[]): Round {
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    cpuMicrosPerRequest: median(results.map((r) => r.cpuMicrosPerRequest)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

const bare = await startServer('bare Koa', './bare-server.ts');
const app = await startServer('capabilities route', './app-server.ts');
try {
  console.log(`Warming up both servers (2 s each), then ${rounds} interleaved rounds of ${seconds} s, ${connections} keep-alive connections.`);
  await measure(bare, 2);
  await measure(app, 2);
  const results = new Map<Server, Round[]>([
    [bare, []],
    [app, []],
  ]);
  for (let round = 0; round < rounds; round++) {
    for (const server of [bare, app]) results.get(server)?.push(await measure(server, seconds));
  }

  const rows = [bare, app].map((server) => ({ server, summary: summarize(results.get(server) ?? []) }));
  console.log('');
  console.log('| server | req/s | p50 ms | p99 ms | CPU µs/req | non-2xx |');
  console.log('|---|---|---|---|---|---|');
  for (const { server, summary } of rows) {
    console.log(
      `| ${server.name} | ${summary.rps.toFixed(0)} | ${summary.p50} | ${summary.p99} | ${summary.cpuMicrosPerRequest.toFixed(1)} | ${summary.non2xx} |`,
    );
  }
  const [baseline, route] = rows.map((row) => row.summary) as [Round, Round];
  // Each round measures the two servers back to back, so their ratio within a round is steadier than
  // the ratio of medians when the machine's speed drifts between rounds.
  const bareRounds = results.get(bare) ?? [];
  const ratio = median((results.get(app) ?? []).map((r, i) => r.rps / (bareRounds[i] as Round).rps));
  console.log('');
  console.log(
    `Ratio (capabilities route with API key, rate limiter and request log / bare Koa), median of ${rounds} rounds: ${ratio.toFixed(2)} (goal ≥ ${GOAL}); CPU per request ${(route.cpuMicrosPerRequest / baseline.cpuMicrosPerRequest).toFixed(2)}× the bare app's`,
  );
  if (route.non2xx > 0) console.log(`Warning: the service answered ${route.non2xx} requests with something other than 2xx.`);
} finally {
  bare.child.kill();
  app.child.disconnect();
}
