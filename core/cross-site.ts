/**
 * Whether a change sent with the traveler's browser cookie comes from another site's page: the check both
 * doors run on every cookie-authenticated change (the REST door's session routes, the hosted pages' forms
 * and the Connected apps API), before the CSRF token. A browser tells where a request comes from in two
 * headers no page can set: `Origin` (the page's exact origin) and `Sec-Fetch-Site` (same-origin,
 * same-site, cross-site, or none for what the person did themselves).
 *
 * - An `Origin` is decisive: allowed when it is exactly one of `allowedOrigins`, whatever Sec-Fetch-Site
 *   says (a partner page listed in COMPONENT_ORIGINS may be on another site), refused otherwise.
 * - `Origin: null` (an opaque origin: a sandboxed frame, a data: URL, a redirect across origins) is refused,
 *   except with `Sec-Fetch-Site: same-origin` or `none`: Chromium posts the forms of a no-referrer page with
 *   `Origin: null` (our hosted pages are `same-origin` now, so that browsers send their real Origin, but a
 *   tab opened before may still be no-referrer), and Sec-Fetch-Site then vouches that the page was ours.
 * - Without Origin, `Sec-Fetch-Site: cross-site` is refused. Without either header (a client that is not a
 *   browser, an old browser), nothing is decided here: the CSRF token, always required, is the check.
 *
 * Plain strings in, a boolean out: each door reads the headers and answers in its own words, with the
 * code `cross_site_request` (403).
 */

export interface RequestSource {
  /** The request's `Origin` header; '' when it has none. */
  origin: string;
  /** Its `Sec-Fetch-Site` header; '' when it has none. */
  fetchSite: string;
}

/** True when the request must be refused: another site's page sent it. */
export function isCrossSiteRequest(source: RequestSource, allowedOrigins: ReadonlySet<string>): boolean {
  const origin = source.origin.trim();
  const fetchSite = source.fetchSite.trim().toLowerCase();
  if (origin === 'null') return fetchSite !== 'same-origin' && fetchSite !== 'none';
  if (origin !== '') return !allowedOrigins.has(origin);
  return fetchSite === 'cross-site';
}
