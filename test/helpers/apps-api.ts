/**
 * The Connected apps JSON API (/v1/apps) as the traveler's own browser calls it: the session cookie, and
 * on every change the session's CSRF token, which GET /v1/apps hands out in its `x-csrf-token` header.
 */
import assert from 'node:assert/strict';

/** The headers a change of /v1/apps needs: `cookie` and the CSRF token GET /v1/apps gives that session. */
export async function appsHeaders(serviceUrl: string, cookie: string): Promise<{ cookie: string; 'x-csrf-token': string }> {
  const response = await fetch(`${serviceUrl}/v1/apps`, { headers: { cookie } });
  assert.equal(response.status, 200, `GET /v1/apps answered ${response.status}: ${await response.clone().text()}`);
  const token = response.headers.get('x-csrf-token');
  assert.ok(token, 'GET /v1/apps handed out no x-csrf-token');
  return { cookie, 'x-csrf-token': token };
}
