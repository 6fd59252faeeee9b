import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { stopServer } from '../shutdown.js';

async function slowServer(delayMs: number) {
  const server = http.createServer((_req, res) => {
    setTimeout(() => res.end('done'), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

test('a request in flight finishes; new connections are refused; idle ones do not hold the stop', async (t) => {
  const { server, url } = await slowServer(400);
  const idleAgent = new http.Agent({ keepAlive: true });
  // An idle keep-alive connection, left open by a finished request.
  await new Promise<void>((resolve) => http.get(url, { agent: idleAgent }, (res) => res.resume().on('end', resolve)));

  const inFlight = fetch(url).then(async (response) => ({ status: response.status, body: await response.text() }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  const stopped = stopServer(server, 5000);
  await t.throwsAsync(fetch(url));
  t.deepEqual(await inFlight, { status: 200, body: 'done' });
  await stopped;
  t.true(Date.now() - started < 2000, 'the idle keep-alive connection did not delay the stop');
  idleAgent.destroy();
});

test('after the grace period, connections still open are cut', async (t) => {
  const { server, url } = await slowServer(5000);
  let forced = false;
  const inFlight = fetch(url).then(
    () => 'answered',
    () => 'cut',
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  await stopServer(server, 300, () => (forced = true));
  t.true(forced);
  t.is(await inFlight, 'cut');
});
