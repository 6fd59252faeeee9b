/**
 * `npm run bench:booking`: the booking benchmark (booking-bench.ts) alone, with its goals, so that a change
 * to the booking path can be measured before and after in a minute rather than in a whole `npm run bench`.
 * DATABASE_URL selects PostgreSQL, as for the whole run.
 */
import { runBookingBench } from './booking-bench.js';
import { printSummary, say } from './figures.js';

const database = process.env.DATABASE_URL ? 'PostgreSQL of DATABASE_URL' : 'the embedded database';
say(`Node.js ${process.version}, ${database}.`);
await runBookingBench();
printSummary(database);
