/**
 * The figures a benchmark run measured, each with its goal where issue 25 set one, printed together at the
 * end of `npm run bench` and, with `--json`, written to standard output as JSON for tools to read (the
 * tables then go to standard error).
 */
import os from 'node:os';

export interface Goal {
  /** `least`: the value must be at least `value`; `most`: at most. */
  at: 'least' | 'most';
  value: number;
  /** What the value is a ratio of, when it is one. */
  of?: string;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  goal?: Goal;
  met?: boolean;
  /**
   * The same figure for the same job done plainly with the same libraries, in the same run
   * (plain-server.ts): what a goal the service misses is to be read against.
   */
  plain?: number;
}

const figures: Figure[] = [];

/** `npm run bench -- --json`. */
export const JSON_OUTPUT = process.argv.includes('--json');

/** A line of the human report: standard output, or standard error when the JSON takes standard output. */
export function say(line = ''): void {
  (JSON_OUTPUT ? process.stderr : process.stdout).write(`${line}\n`);
}

export function record(name: string, value: number, unit: string, goal?: Goal, plain?: number): void {
  const met = goal === undefined ? undefined : Number.isFinite(value) && (goal.at === 'least' ? value >= goal.value : value <= goal.value);
  figures.push({ name, value, unit, ...(goal ? { goal, met } : {}), ...(plain === undefined ? {} : { plain }) });
}

const goalText = (goal: Goal) => `${goal.at === 'least' ? '≥' : '≤'} ${goal.value}${goal.of ? ` of ${goal.of}` : ''}`;

/** Every figure with a goal, in one table; then, with --json, all of them as JSON. */
export function printSummary(database: string): void {
  say('');
  say(`Goals (issue 25), Node.js ${process.version}, ${os.cpus().length} cores, ${database}:`);
  say('| figure | value | goal | met | the same job done plainly (plain-server.ts) |');
  say('|---|---|---|---|---|');
  for (const figure of figures.filter((candidate) => candidate.goal)) {
    const plain = figure.plain === undefined ? '' : `${format(figure.plain)} ${figure.unit}`;
    say(`| ${figure.name} | ${format(figure.value)} ${figure.unit} | ${goalText(figure.goal as Goal)} | ${figure.met ? 'yes' : 'NO'} | ${plain} |`);
  }
  const missed = figures.filter((figure) => figure.goal && !figure.met);
  say(missed.length === 0 ? 'Every goal met.' : `Goals missed: ${missed.length} of ${figures.filter((figure) => figure.goal).length}.`);
  if (JSON_OUTPUT) {
    const report = { node: process.version, platform: `${process.platform}-${process.arch}`, cores: os.cpus().length, database, measured_at: new Date().toISOString(), figures };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  }
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}
