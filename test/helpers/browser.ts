/**
 * A traveler's browser, enough for the hosted pages: a cookie jar, redirects followed one by one (never
 * to the client's own redirect URI, which is returned instead), and the forms of our pages read from
 * their HTML. The e-mailed code is read from the mail sandbox, as a person would read their inbox.
 */
import assert from 'node:assert/strict';

export interface Page {
  status: number;
  url: string;
  html: string;
  headers: Headers;
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export class TestBrowser {
  /** Keyed by name and path, as a browser keeps them: two sign-in tabs have one cookie each. */
  readonly #cookies = new Map<string, Cookie>();

  /** `headers` go with every request (a proxy's X-Forwarded-For, say). */
  constructor(
    private readonly origin: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Follows redirects from `url` until a page of ours answers, or a redirect leaves our origin. */
  async open(url: string, init: RequestInit = {}): Promise<Page | { redirectedTo: string }> {
    let current = url;
    let request = init;
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(current, {
        ...request,
        redirect: 'manual',
        headers: { ...this.#headers(new URL(current).pathname), ...(request.headers as Record<string, string>) },
      });
      this.#remember(response);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, current).href;
        if (new URL(next).origin !== this.origin) return { redirectedTo: next };
        current = next;
        request = {};
        continue;
      }
      return { status: response.status, url: current, html: await response.text(), headers: response.headers };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Posts the form of `page` whose action ends with `actionSuffix`, with its CSRF token and `fields`. */
  async submit(page: Page, actionSuffix: string, fields: Record<string, string | string[]>): Promise<Page | { redirectedTo: string }> {
    const action = formActions(page.html).find((candidate) => candidate.endsWith(actionSuffix));
    assert.ok(action, `no form posting to …${actionSuffix} on ${page.url}:\n${page.html}`);
    const body = new URLSearchParams();
    body.append('csrf', csrfOf(page.html));
    for (const [name, value] of Object.entries(fields)) {
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    }
    return this.open(new URL(action, page.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  /** The value of a cookie (the one for the root path when there are several). */
  cookie(name: string): string | undefined {
    return [...this.#cookies.values()].filter((cookie) => cookie.name === name).sort((a, b) => a.path.length - b.path.length)[0]?.value;
  }

  /** The Cookie header this browser sends to `path` (for requests made without it). */
  cookieHeader(path: string): string {
    // Most specific path first, as browsers send them.
    return [...this.#cookies.values()]
      .filter((item) => path === item.path || path.startsWith(item.path.endsWith('/') ? item.path : `${item.path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map((item) => `${item.name}=${item.value}`)
      .join('; ');
  }

  #headers(path: string): Record<string, string> {
    const cookie = this.cookieHeader(path);
    return cookie ? { ...this.headers, cookie, accept: 'text/html' } : { ...this.headers, accept: 'text/html' };
  }

  #remember(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const path = attributes.map((attribute) => /^\s*path=(.*)$/i.exec(attribute)?.[1]?.trim()).find(Boolean) ?? '/';
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute) || /^\s*max-age=0/i.test(attribute));
      const key = `${name} ${path}`;
      if (expired || value === '') this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }
}

export function isPage(result: Page | { redirectedTo: string }): result is Page {
  return 'html' in result;
}

export function formActions(html: string): string[] {
  return [...html.matchAll(/(?:action|formaction)="([^"]+)"/g)].map((match) => decodeEntities(match[1] as string));
}

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  assert.ok(match, 'the page has no CSRF token');
  return decodeEntities(match[1] as string);
}

/** The scopes offered on a consent page, in order. */
export function offeredScopes(html: string): string[] {
  return [...html.matchAll(/type="checkbox" name="scope" value="([^"]+)"/g)].map((match) => match[1] as string);
}

function decodeEntities(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** The newest sign-in code e-mailed to `email`, read from the mail sandbox. */
export async function latestCode(serviceUrl: string, email: string): Promise<string> {
  const response = await fetch(`${serviceUrl}/sandbox/mail/messages?to=${encodeURIComponent(email)}`);
  const messages = (await response.json()) as { text: string }[];
  const match = /\b(\d{6,8})\b/.exec(messages[0]?.text ?? '');
  assert.ok(match, `no code mailed to ${email}`);
  return match[1] as string;
}
