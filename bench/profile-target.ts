/**
 * `npm run bench:profile -- <target> [seconds]`: the benchmark's service profiled
 * (bench/profile-hook.mjs) while autocannon drives one target after a warm-up, its start left out; the
 * profile written to PROFILE_DIR (default /tmp/profiles), then the functions with the most self time and
 * the most total time: what a request spends, for the lean request path (issue 25).
 * Targets: bare (bare Koa, the baseline), capabilities, users-me, offer, create-offer, tool-2025, tool-2026,
 * refresh, and booking (createProviderBooking on provider_b, ten travelers at once; `seconds` is then the
 * number of bookings per traveler).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { createOffer, serviceBooking, type BenchTraveler, type BookingTarget } from './booking-calls.js';
import { underLoad } from './load.js';

const target = process.argv[2] ?? 'capabilities';
const seconds = Number(process.argv[3] ?? 8);
const dir = process.env.PROFILE_DIR ?? '/tmp/profiles';
fs.mkdirSync(dir, { recursive: true });

const server = { bare: './bare-server.ts', booking: './booking-server.ts' }[target] ?? './app-server.ts';
// From the build (`npm run bench:profile`), the compiled server; from the sources, through tsx.
const built = fileURLToPath(import.meta.url).endsWith('.js');
const hook = new URL('./profile-hook.mjs', import.meta.url).href;
const child = fork(new URL(built ? server.replace(/\.ts$/, '.js') : server, import.meta.url), [], {
  execArgv: built ? ['--import', hook] : ['--import', 'tsx', '--import', hook],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const reply = <T>(key: string) => new Promise<T>((resolve) => child.on('message', (m) => key in (m as object) && resolve((m as Record<string, T>)[key] as T)));
const ready = await reply<Record<string, string>>('ready');
const base = `http://127.0.0.1:${String(ready.port)}`;
const key = { 'x-api-key': ready.apiKey as string };
const json = { 'content-type': 'application/json' };
const toolBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_offer_details', arguments: { provider_id: 'provider_b', offer_id: ready.offerId } } });
const requests: Record<string, autocannon.Options> = {
  bare: { url: `${base}/v1/flights/providers/provider_a/capabilities` },
  capabilities: { url: `${base}/v1/flights/providers/provider_a/capabilities`, headers: key },
  'users-me': { url: `${base}/v1/users/me`, headers: { ...key, authorization: `Bearer ${ready.token}` } },
  offer: { url: `${base}/v1/flights/providers/provider_b/offers/${ready.offerId}`, headers: key },
  'create-offer': { url: `${base}/v1/flights/providers/provider_b/offers`, method: 'POST', headers: { ...key, ...json }, body: JSON.stringify(ready.providerBOffer) },
  'tool-2026': { url: `${base}/v1/mcp`, method: 'POST', headers: { authorization: `Bearer ${ready.toolToken}`, ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_offer_details' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_offer_details', arguments: { provider_id: 'provider_b', offer_id: ready.offerId }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' } } } }) },
  'tool-2025': { url: `${base}/v1/mcp`, method: 'POST', headers: { authorization: `Bearer ${ready.toolToken}`, ...json, accept: 'application/json, text/event-stream' }, body: toolBody },
  refresh: { url: `${base}/v1/oauth/token`, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: ready.clientAuthorization as string }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: ready.refreshToken as string }).toString() },
};
/** The load to profile, made ready (warmed up): it runs and says how many requests it sent. */
async function loadFor(): Promise<() => Promise<number>> {
  if (target === 'booking') {
    const { target: booking, travelers } = ready as unknown as { target: BookingTarget; travelers: BenchTraveler[] };
    const book = async (count: number) => {
      const offers = await Promise.all(Array.from({ length: travelers.length * count }, () => createOffer(booking)));
      return () => underLoad(travelers.length, count, (worker, index) => serviceBooking(booking, travelers[worker] as BenchTraveler, offers[worker * count + index] as string, randomUUID()));
    };
    await (await book(2))();
    const run = await book(seconds);
    return async () => {
      const result = await run();
      console.log(`booking: ${result.millis.length} bookings in ${result.wallMs.toFixed(0)} ms, ${result.failures.length} failed ${result.failures[0] ?? ''}`);
      return result.millis.length;
    };
  }
  const options = requests[target];
  if (!options) throw new Error(`unknown target ${target}: ${Object.keys(requests).join(', ')}, booking`);
  await autocannon({ ...options, connections: 10, duration: 2 });
  return async () => {
    const result = await autocannon({ ...options, connections: 10, duration: seconds });
    console.log(`${target}: ${result.requests.average} req/s, non-2xx ${result.non2xx}, ${result.requests.total} requests`);
    return result.requests.total;
  };
}
const load = await loadFor();
const profiling = new Promise<{ profile: Profile; cpuMicros: number }>((resolve) =>
  child.on('message', (m) => typeof m === 'object' && m !== null && 'profile' in m && resolve(m as { profile: Profile; cpuMicros: number })),
);
child.send('profile-start');
await reply('profiling');
const requestCount = await load();
child.send('profile-stop');
const { profile, cpuMicros } = await profiling;
child.disconnect();
const file = path.join(dir, `${target}-${Date.now()}.cpuprofile`);
fs.writeFileSync(file, JSON.stringify(profile));

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }
const nameOf = (node: Node) => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/\/work\/main\//, '')}:${node.callFrame.lineNumber + 1}`;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
// Each sample weighs the time until the next one: under load the sampler falls far behind its 100 µs
// interval, so counting samples as 100 µs each would understate a request's CPU several times over.
const timeOf = new Map<number, number>();
profile.samples.forEach((id, index) => timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0)));
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
/** Total samples under `node`, counting each function once per stack. */
function walk(node: Node, onStack: Set<string>): number {
  const name = nameOf(node);
  let hits = timeOf.get(node.id) ?? 0;
  if (!name.startsWith('(idle)')) busy += hits;
  self.set(name, (self.get(name) ?? 0) + hits);
  const fresh = !onStack.has(name);
  if (fresh) onStack.add(name);
  for (const child of node.children ?? []) hits += walk(byId.get(child) as Node, onStack);
  if (fresh) {
    onStack.delete(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + hits);
  }
  return hits;
}
walk(profile.nodes[0] as Node, new Set());
const show = (title: string, table: Map<string, number>) => {
  console.log(`${title}: shares of the main thread's busy time (${(busy / requestCount).toFixed(1)} µs a request); the process, every thread: ${(cpuMicros / requestCount).toFixed(1)} µs of CPU a request`);
  for (const [where, hits] of [...table].filter(([where]) => !where.startsWith('(idle)') && !where.startsWith('(root)')).sort((a, b) => b[1] - a[1]).slice(0, 35)) {
    console.log(`${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${where}`);
  }
};
show('self time', self);
show('total time', inclusive);
console.log(`profile: ${file}`);
