/**
 * `npm run load`: a bounded load of bookings against a running topology (bench/booking-load.ts), as
 * `npm run topology` described it in its target file. Prints bookings a second, p50/p99 and errors.
 *
 *   npm run load -- --target topology-target.json [--rate 10] [--seconds 20] [--connections 8]
 *
 * Loopback only, at most 200 bookings a second for at most 5 minutes: it is for this machine's topology.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { bookingLoad, describeLoad, type LoadTarget } from './booking-load.js';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'topology-target.json' },
    rate: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '8' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const problems = [
  !(rate > 0 && rate <= 200) && '--rate must be from 1 to 200 bookings a second',
  !(seconds > 0 && seconds <= 300) && '--seconds must be from 1 to 300',
  !(Number.isInteger(connections) && connections >= 1 && connections <= 100) && '--connections must be a whole number from 1 to 100',
].filter(Boolean);
if (!fs.existsSync(values.target as string)) problems.push(`no target file ${values.target}: start the topology with npm run topology first`);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(2);
}
const target = JSON.parse(fs.readFileSync(values.target as string, 'utf8')) as LoadTarget;
if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(target.url).hostname)) {
  console.error(`${target.url} is not on this machine: npm run load sends its traffic to loopback addresses only.`);
  process.exit(2);
}
console.error(`${rate} bookings a second for ${seconds} s against ${target.url}, on ${connections} connections (offers are made first)...`);
const report = await bookingLoad(target, { rate, seconds, connections });
console.log(describeLoad(report));
