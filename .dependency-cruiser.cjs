/**
 * The dependency rule of ARCHITECTURE.md as a check that fails `npm run lint`:
 * core knows nothing of the doors or adapters; the doors (rest, mcp, checkout, admin) do not reach into each
 * other, into authz internals or into providers; the MCP SDK stays in mcp/, oidc-provider in authz/.
 * Only the composition root (app.ts, main.ts, the capability modules in modules/) and scripts see everything.
 */
module.exports = {
  forbidden: [
    {
      name: 'core-is-independent',
      comment: 'core/ imports nothing of the project outside core/.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(rest|mcp|authz|providers|admin|seeds|scripts|bench|modules|demo|checkout|jobs|outbound)/|^(app|main|config)\\.ts$' },
    },
    {
      name: 'core-has-no-doors',
      comment: 'core/ never sees HTTP frameworks, the MCP SDK or oidc-provider.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: 'node_modules/(koa|@koa|koa-body|koa-helmet|@modelcontextprotocol|oidc-provider|got)/' },
    },
    {
      name: 'rest-stays-in-its-lane',
      comment: 'rest/ imports core only; authorization is handed in by the composition root.',
      severity: 'error',
      from: { path: '^rest/' },
      to: { path: '^(mcp|authz|providers|admin|seeds|modules|checkout)/' },
    },
    {
      name: 'mcp-stays-in-its-lane',
      severity: 'error',
      from: { path: '^mcp/' },
      to: { path: '^(rest|authz|providers|admin|seeds|modules|checkout)/' },
    },
    {
      name: 'checkout-stays-in-its-lane',
      comment: 'checkout/ (the hosted checkout, a door) imports core only; the sign-in limits are handed in by the composition root.',
      severity: 'error',
      from: { path: '^checkout/' },
      to: { path: '^(rest|mcp|authz|providers|admin|seeds|modules|demo)/|^(app|main|config)\\.ts$' },
    },
    {
      name: 'admin-stays-in-its-lane',
      severity: 'error',
      from: { path: '^admin/' },
      to: { path: '^(rest|mcp|authz|providers|seeds|modules)/' },
    },
    {
      name: 'authz-imports-core-only',
      severity: 'error',
      from: { path: '^authz/' },
      to: { path: '^(rest|mcp|providers|admin|seeds|modules|checkout)/' },
    },
    {
      name: 'providers-import-core-only',
      severity: 'error',
      from: { path: '^providers/' },
      to: { path: '^(rest|mcp|authz|admin|seeds|modules)/' },
    },
    {
      name: 'demo-talks-over-http',
      comment: 'demo/ (the sandbox demo airline and travel agency) reaches the service over HTTP only, as a real partner would: core types at most.',
      severity: 'error',
      from: { path: '^demo/' },
      to: { path: '^(rest|mcp|authz|providers|admin|seeds|modules|checkout)/|^(app|main|config)\\.ts$' },
    },
    {
      name: 'nothing-but-the-root-sees-the-demo',
      comment: 'Only the composition root (modules/) mounts the demo sites.',
      severity: 'error',
      from: { pathNot: '^(demo|modules|test)/' },
      to: { path: '^demo/' },
    },
    {
      name: 'mcp-sdk-only-in-mcp',
      severity: 'error',
      from: { pathNot: '^(mcp|test)/' },
      to: { path: 'node_modules/@modelcontextprotocol/' },
    },
    {
      name: 'jobs-import-core-only',
      comment: 'jobs/ (the job runner, an adapter to pg-boss) imports core only.',
      severity: 'error',
      from: { path: '^jobs/' },
      to: { path: '^(rest|mcp|authz|providers|admin|seeds|modules|checkout|demo|outbound)/' },
    },
    {
      name: 'pg-boss-only-in-jobs',
      severity: 'error',
      from: { pathNot: '^(jobs|test)/' },
      to: { path: 'node_modules/pg-boss/' },
    },
    {
      name: 'outbound-is-infrastructure',
      comment: 'outbound/ (requests to addresses others chose) imports nothing of the project: authz and providers share it.',
      severity: 'error',
      from: { path: '^outbound/' },
      to: { path: '^(core|rest|mcp|authz|providers|admin|seeds|modules|checkout|demo|jobs)/' },
    },
    {
      name: 'oidc-provider-only-in-authz',
      severity: 'error',
      from: { pathNot: '^(authz|test)/' },
      to: { path: 'node_modules/oidc-provider/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Everything of ours is cruised (so a new folder cannot escape the rules); not what we install or keep.
    exclude: { path: '^(node_modules|dist|scratch|\\.data|\\.ci)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
