/**
 * `npm run -s agent-token -- [endpoint URL]`: an access token for the tool endpoint, the way an agent
 * gets one, for clients that take a bearer header (the MCP Inspector's command line, curl). It reads the
 * endpoint's protected-resource metadata, registers itself as a public client, and prints the sign-in URL
 * on stderr (and, in sandbox mode, the mail sandbox's address with `?to=` where the code arrives); once the traveler has signed in and consented in a browser, it takes the code at its
 * loopback callback, exchanges it (PKCE), and prints the access token alone on stdout.
 *
 * Default endpoint: http://localhost:8080/v1/mcp. Scope: what the endpoint's 401 challenge names.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const endpoint = new URL(process.argv[2] ?? 'http://localhost:8080/v1/mcp');

const challenge = (await fetch(endpoint, { method: 'POST' })).headers.get('www-authenticate') ?? '';
const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
const scope = /scope="([^"]+)"/.exec(challenge)?.[1] ?? 'bookings.write';
if (!metadataUrl) fail(`${endpoint.href} did not answer with an OAuth challenge: is it the tool endpoint of a running instance?`);
const resource = (await json(metadataUrl)) as { resource: string; authorization_servers: string[] };
const server = (await json(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)) as {
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
};

const callback = http.createServer();
await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
const client = (await json(server.registration_endpoint, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ client_name: 'agent-token (command line)', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
})) as { client_id: string };

const verifier = crypto.randomBytes(32).toString('base64url');
const state = crypto.randomBytes(16).toString('base64url');
const authorization = new URL(server.authorization_endpoint);
authorization.search = new URLSearchParams({
  response_type: 'code',
  client_id: client.client_id,
  redirect_uri: redirectUri,
  scope,
  state,
  resource: resource.resource,
  code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
  code_challenge_method: 'S256',
}).toString();
process.stderr.write(`Open this URL in a browser, sign in and allow access:\n\n${authorization.href}\n\n`);
const mailbox = await mailSandbox();
if (mailbox) process.stderr.write(`The sign-in code goes to the mail sandbox: read it at ${mailbox}?to=<your address>\n\n`);

const code = await new Promise<string>((resolve) => {
  callback.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', redirectUri);
    if (url.searchParams.get('state') !== state) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('This answer is not for the sign-in this command started.');
      return;
    }
    const given = url.searchParams.get('code');
    response.writeHead(given ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(given ? 'Signed in: you can close this tab.' : `Not signed in: ${url.searchParams.get('error') ?? 'no code came back'}.`);
    callback.close();
    if (given) resolve(given);
    else fail(`The traveler did not allow access (${url.searchParams.get('error') ?? 'no code came back'}): run the command again.`);
  });
});

const tokens = (await json(server.token_endpoint, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: client.client_id, code_verifier: verifier, resource: resource.resource }),
})) as { access_token: string; scope?: string; expires_in?: number };
process.stderr.write(`Access token for ${resource.resource} (scope: ${tokens.scope ?? scope}; ${tokens.expires_in ?? 900} s):\n`);
process.stdout.write(`${tokens.access_token}\n`);

/** The mail sandbox's address, when the instance runs in sandbox mode (without it, the path is a 404). */
async function mailSandbox(): Promise<string | undefined> {
  const mailbox = new URL('/sandbox/mail/messages', endpoint).href;
  const probe = await fetch(mailbox).catch(() => undefined);
  return probe && probe.status !== 404 ? mailbox : undefined;
}

async function json(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const body = await response.json().catch(() => undefined);
  if (!response.ok) fail(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
