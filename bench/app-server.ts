/**
 * The whole service as `npm start` builds it (request log on, API key check, usage limiter), with a
 * partner whose plan is too large to limit a benchmark, so every request takes the full path and
 * succeeds.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createService } from '../app.js';
import { loadConfig } from '../config.js';
import { reportToParent } from './child.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-bench-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SANDBOX: '1', LOG_LEVEL: 'info', PORT: '0' });
const service = await createService(config);
await service.partners.setPlan({ id: 'benchmark', requests_per_second: 1_000_000, burst: 1_000_000, requests_per_day: 1_000_000_000 });
const partner = await service.partners.createPartner({ name: 'Benchmark', plan_id: 'benchmark' });

const server = http.createServer(service.app.callback());
server.listen(0, '127.0.0.1', () => reportToParent({ port: (server.address() as AddressInfo).port, apiKey: partner.api_key }));
process.on('disconnect', async () => {
  server.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
