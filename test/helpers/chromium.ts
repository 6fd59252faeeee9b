/**
 * Debian's Chromium, driven by playwright-core, for the tests of the hosted pages in a real browser; and
 * the client's redirect target those tests land on.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_MISSING = `Chromium is not installed at ${CHROMIUM} (.ci/run installs Debian's chromium; CHROMIUM_PATH overrides)`;

/**
 * Chromium, or undefined when it is not installed (the tests then fail, saying so). `thirdPartyCookiesBlocked`:
 * Chromium's test profile blocks them already; the flag says so plainly, for the tests that rely on it.
 */
export async function launchChromium(options: { thirdPartyCookiesBlocked?: boolean } = {}): Promise<Browser | undefined> {
  if (!fs.existsSync(CHROMIUM)) return undefined;
  return chromium.launch({
    executablePath: CHROMIUM,
    // Closed network: no background traffic; running as root in CI needs --no-sandbox.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.thirdPartyCookiesBlocked ? ['--test-third-party-cookie-phaseout'] : []),
    ],
  });
}

/** A client's redirect target: a page saying the browser is back at the client. */
export async function clientCallback(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((_request, response) => response.end('<!doctype html><title>Client</title><p>Back at the client.</p>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
