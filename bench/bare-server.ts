/** The baseline: a bare Koa app with a router, answering the same small JSON as the capabilities route. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { PROVIDERS } from '../seeds/providers.js';
import { reportToParent } from './child.js';

const capabilities = PROVIDERS[0]?.capabilities;
const app = new Koa();
const router = new Router();
router.get('/v1/flights/providers/:provider/capabilities', (ctx) => {
  ctx.body = capabilities;
});
app.use(router.routes());

const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => reportToParent({ port: (server.address() as AddressInfo).port }));
// Its parent (the benchmark or bench/profile-target.ts) is done with it.
process.on('disconnect', () => process.exit(0));
