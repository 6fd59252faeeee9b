/**
 * `npm run topology`: the production topology on this machine (bench/topology.ts: HAProxy, three
 * instances, PgBouncer in transaction mode, on the PostgreSQL of DATABASE_URL and the Redis of REDIS_URL),
 * with a load partner and travelers ready, written to a target file for `npm run load`. Runs until Ctrl-C.
 *
 *   npm run topology [-- --target topology-target.json]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { prepareLoadTarget } from './booking-load.js';
import { startTopology, topologyAvailable } from './topology.js';

const { values } = parseArgs({ options: { target: { type: 'string', default: 'topology-target.json' } } });
const missing = topologyAvailable();
if (missing) {
  console.error(`npm run topology needs HAProxy and PgBouncer: ${missing}.`);
  process.exit(2);
}
if (!process.env.DATABASE_URL) {
  console.error('npm run topology needs DATABASE_URL: the PostgreSQL server it makes a fresh test database on (its name must contain "test"), such as postgres://postgres@127.0.0.1:5432/travel_test.');
  process.exit(2);
}
const topology = await startTopology({ env: { LOG_LEVEL: 'warn' } });
const target = await prepareLoadTarget(topology.running);
fs.writeFileSync(values.target as string, JSON.stringify(target, null, 2), { mode: 0o600 });
console.error(
  [
    `The balancer: ${topology.url} (HAProxy), in front of ${topology.instances.map((instance) => `${instance.name} on :${instance.port}`).join(', ')}.`,
    `The load's partner and travelers: ${values.target}. Try: npm run load -- --target ${values.target} --rate 10 --seconds 20`,
    'Ctrl-C stops it all and drops its database.',
  ].join('\n'),
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await topology.stop();
  fs.rmSync(values.target as string, { force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
