/**
 * The API's own description: the generated OpenAPI document, a reference page rendered by the bundled
 * swagger-ui-dist (no CDN), the errors page every error's `doc_url` points into, the quick-start landing
 * page at the root, and the site's icon.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineRoute, type Route } from '../route-table.js';
import { HttpProblem } from '../problems.js';
import { z } from 'zod';
import { ERROR_DOCS_PATH } from '../../core/error-catalog.js';
import { errorDocsPage } from './error-docs-page.js';
import { landingPage, type LandingPageOptions } from './landing-page.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api', deepLinking: true });
});
`;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Travel Partner API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
</head>
<body>
  <div id="api"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const AssetParams = z.object({ file: z.string() });

export interface DocsDeps {
  openApiDocument(): unknown;
  landing: LandingPageOptions;
  /** AUTH_URL, which the errors page names where the hosted pages are. */
  authUrl: string;
  /** The site's icon, an SVG (the hosted pages show the same one). */
  icon: string;
}

export function docsRoutes(deps: DocsDeps): Route[] {
  const assetDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  const html = { 'Content-Type': 'text/html; charset=utf-8' };
  const landing = landingPage(deps.landing);
  const errorsPage = errorDocsPage({ baseUrl: deps.landing.baseUrl, authUrl: deps.authUrl, stylesheetPath: deps.landing.stylesheetPath });

  return [
    defineRoute({
      method: 'GET',
      path: '/',
      operationId: 'getLandingPage',
      summary: 'Landing page',
      tags: ['Docs'],
      auth: 'none',
      hidden: true,
      page: true,
      responses: { 200: { description: 'HTML' } },
      handler: () => ({ headers: html, body: landing }),
    }),
    defineRoute({
      method: 'GET',
      path: '/favicon.ico',
      operationId: 'getFavicon',
      summary: 'The site icon',
      tags: ['Docs'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'An SVG image' } },
      // Browsers ask for /favicon.ico whatever the page links: an SVG under that name is fine for them.
      handler: () => ({ headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' }, body: deps.icon }),
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'The OpenAPI 3.1 document',
      tags: ['Docs'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'The document' } },
      handler: () => ({ body: deps.openApiDocument() }),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      operationId: 'getDocsPage',
      summary: 'The API reference page',
      tags: ['Docs'],
      auth: 'none',
      hidden: true,
      page: true,
      responses: { 200: { description: 'HTML' } },
      handler: () => ({ headers: html, body: DOCS_PAGE }),
    }),
    defineRoute({
      method: 'GET',
      path: ERROR_DOCS_PATH,
      operationId: 'getErrorDocsPage',
      summary: 'The errors page: one section per error code',
      tags: ['Docs'],
      auth: 'none',
      hidden: true,
      page: true,
      responses: { 200: { description: 'HTML' } },
      handler: () => ({ headers: html, body: errorsPage }),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs/assets/{file}',
      operationId: 'getDocsAsset',
      summary: 'Files of the API reference page',
      tags: ['Docs'],
      auth: 'none',
      hidden: true,
      params: AssetParams,
      responses: { 200: { description: 'The file' } },
      handler({ params }) {
        const cacheable = { 'Cache-Control': 'public, max-age=86400' };
        if (params.file === 'init.js') {
          return { headers: { ...cacheable, 'Content-Type': 'text/javascript; charset=utf-8' }, body: INIT_SCRIPT };
        }
        const type = Object.hasOwn(ASSETS, params.file) ? ASSETS[params.file] : undefined;
        if (!type) throw new HttpProblem(404, 'not_found', `There is no docs asset named ${params.file}.`);
        let content = cache.get(params.file);
        if (!content) {
          content = fs.readFileSync(path.join(assetDir, params.file));
          cache.set(params.file, content);
        }
        return { headers: { ...cacheable, 'Content-Type': type }, body: content };
      },
    }),
  ];
}
