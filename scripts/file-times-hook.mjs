// Preloaded into each of ava's test processes by scripts/suite-times.mjs (`--import`): when the process
// ends, appends one JSON line to the file named by SUITE_TIMES_LOG with the test file it ran, when its
// process started and ended (epoch milliseconds), the CPU it used, and on Linux the CPU of the child
// processes it ended and waited for (Chromium, `npm start`). ava 7 has no per-file timing.
import fs from 'node:fs';
import process from 'node:process';

const log = process.env.SUITE_TIMES_LOG;
if (log) {
  let file;
  // ava sends the worker its options, the test file among them, over the IPC channel; the listener is
  // removed at once so that it does not keep the channel (and the process) alive.
  const onMessage = (message) => {
    if (message?.ava?.type !== 'options') return;
    file = message.ava.options.file;
    process.off('message', onMessage);
  };
  process.on('message', onMessage);
  process.on('exit', () => {
    // A process a test forks inherits the preload; only ava's own workers are logged.
    if (!file) return;
    const cpu = process.cpuUsage();
    const line = { file, start: Math.round(performance.timeOrigin), end: Date.now(), cpuMs: Math.round((cpu.user + cpu.system) / 1000), childCpuMs: childCpuMs() };
    fs.appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}

/** cutime + cstime of /proc/self/stat, in clock ticks of 10 ms (Linux's USER_HZ); null elsewhere. */
function childCpuMs() {
  try {
    // The command name, in parentheses, may hold spaces: count the fields after it.
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}
