/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, its `server` command) against
 * /v1/mcp, for the scenarios that apply to a stateless, tools-only, OAuth-protected server, each at the
 * revision whose wire it runs on: 2025-11-25 (initialize) and 2026-07-28 (server/discover, per-request
 * _meta). Checks that cannot apply are listed, with why, in conformance/expected-failures.yml.
 *
 * Not run, and why:
 * - tools-call-* (text, image, audio, embedded resource, mixed content, error, logging, progress,
 *   sampling, elicitation), json-schema-2020-12, elicitation-sep1034-defaults, elicitation-sep1330-enums
 *   and the input-required-result-* scenarios but one: they call the suite's diagnostic tools
 *   (`test_simple_text`, `json_schema_2020_12_tool`, ...), which a production server does not have.
 *   The endpoint's own input-required behaviour is tested in mcp-confirmation.test.ts.
 * - resources-*, prompts-*, completion-complete, sep-2164-resource-not-found, logging-set-level: the
 *   endpoint offers tools only.
 * - server-session-lifecycle, server-sse-polling, server-sse-multiple-streams: sessions and GET streams,
 *   which a stateless endpoint does not have (GET and DELETE are 405).
 * - http-custom-header-server-validation: no tool of ours declares x-mcp-header parameters.
 * - tasks-* and sep-2640-* (skills): extensions the endpoint does not implement.
 *
 * The suite's command line takes a URL and sends no headers of its own, so it reaches the endpoint
 * through a gateway that adds a traveler's token (helpers/credential-proxy.ts). The suite needs Node.js
 * 22 or later: on an older Node.js, point MCP_CONFORMANCE_NODE at a newer binary (CI installs one).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { startCredentialProxy, type CredentialProxy } from './helpers/credential-proxy.js';
import { authorize, registerPublicClient, uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const run = promisify(execFile);

const SCENARIOS: Record<'2025-11-25' | '2026-07-28', string[]> = {
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'],
  '2026-07-28': ['server-stateless', 'tools-list', 'dns-rebinding-protection', 'http-header-validation', 'caching', 'input-required-result-unsupported-methods'],
};

const SUITE = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = path.resolve('test/conformance/expected-failures.yml');

/** A Node.js that runs the suite (it needs 22 or later), or undefined. */
function suiteNode(): string | undefined {
  if (process.env.MCP_CONFORMANCE_NODE) return process.env.MCP_CONFORMANCE_NODE;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  // Where CI keeps its Node.js 24 (.ci/run), when a developer has run it.
  const cached = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'travel-partner/node24/node_modules/.bin/node');
  return fs.existsSync(cached) ? cached : undefined;
}

const node = suiteNode();
const conformance = node ? test.serial : test.skip;
/** Said in each skipped test's title, where a developer sees it. */
const skipped = node ? '' : ` (skipped: the suite needs Node.js 22 or later, this is ${process.version}; set MCP_CONFORMANCE_NODE to one)`;

let running: RunningService;
let proxy: CredentialProxy;

test.before(async () => {
  if (!node) return;
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix(), toolCallLimit: { points: 10_000, duration: 60 } });
  const endpoint = `${running.url}/v1/mcp`;
  const config = await registerPublicClient(running);
  const { tokens } = await authorize(running, config, {
    redirectUri: 'http://localhost:53682/callback',
    scope: 'bookings.write payments.read payments.write bookings.read',
    traveler: { email: uniqueEmail('conformance') },
    extra: { resource: endpoint },
  });
  proxy = await startCredentialProxy(endpoint, tokens.access_token);
});
test.after.always(async () => {
  await proxy?.close();
  await running?.close();
});

for (const [revision, scenarios] of Object.entries(SCENARIOS)) {
  for (const scenario of scenarios) {
    conformance(`conformance ${revision}: ${scenario}${skipped}`, async (t) => {
      const args = [SUITE, 'server', '--url', proxy.url, '--scenario', scenario, '--spec-version', revision, '--expected-failures', BASELINE];
      try {
        const { stdout } = await run(node as string, args, { timeout: 90_000, env: { ...process.env, NO_COLOR: '1' } });
        t.regex(stdout, /Passed: \d+\/\d+/);
        t.notRegex(stdout, /SKIPPED: scenario/, 'the scenario applies at this revision');
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string };
        t.fail(`${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
      }
    });
  }
}
