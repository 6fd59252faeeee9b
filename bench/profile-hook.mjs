// Preloaded into a benchmark server by bench/profile-target.ts: profiles the CPU between its
// 'profile-start' and 'profile-stop' messages only (not the start), and sends the profile back.
import { Session } from 'node:inspector/promises';
import process from 'node:process';

const session = new Session();
session.connect();
process.on('message', async (message) => {
  if (message === 'profile-start') {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    process.send({ profiling: true });
  } else if (message === 'profile-stop') {
    const { profile } = await session.post('Profiler.stop');
    process.send({ profile });
  }
});
