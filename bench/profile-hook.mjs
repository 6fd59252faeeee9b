// Preloaded into a benchmark server by bench/profile-target.ts: profiles the CPU between its
// 'profile-start' and 'profile-stop' messages only (not the start), and sends the profile back.
import { Session } from 'node:inspector/promises';
import process from 'node:process';

const session = new Session();
session.connect();
// The process's CPU between start and stop, every thread (V8's garbage-collection helpers too), which a
// profile of the main thread cannot show.
let cpuAtStart;
process.on('message', async (message) => {
  if (message === 'profile-start') {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    cpuAtStart = process.cpuUsage();
    process.send({ profiling: true });
  } else if (message === 'profile-stop') {
    const cpu = process.cpuUsage(cpuAtStart);
    const { profile } = await session.post('Profiler.stop');
    process.send({ profile, cpuMicros: cpu.user + cpu.system });
  }
});
