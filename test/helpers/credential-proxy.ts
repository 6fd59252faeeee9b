/**
 * A gateway in front of the tool endpoint that adds the traveler's bearer token to every request, as an
 * MCP host holding the token does: for clients that cannot send headers of their own (the official
 * conformance suite's command line takes a URL only). It passes everything else through unchanged, so
 * what the client sends still meets the endpoint's checks; only its own address (as Host, and as Origin
 * when a client sends one) is translated to the endpoint's, so that a request addressed to the gateway
 * is not taken for a rebinding attack while one naming any other host still is.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CredentialProxy {
  /** The endpoint's URL through the gateway. */
  url: string;
  close(): Promise<void>;
}

export async function startCredentialProxy(target: string, token: string): Promise<CredentialProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const ours = new Set([`127.0.0.1:${port()}`, `localhost:${port()}`]);
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (!req.headers.host || ours.has(req.headers.host)) headers.host = upstream.host;
    const origin = req.headers.origin;
    if (origin && [...ours].some((host) => origin === `http://${host}`)) headers.origin = upstream.origin;
    const forwarded = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = () => (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port()}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
