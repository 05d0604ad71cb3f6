// The import graph's one rule, checked in CI (`npm run check:cycles`): no cycle anywhere in src/ and
// webview/, type-only imports included (tsPreCompilationDeps), so every folder can be read, tested
// and extracted from the bottom up.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle (type-only imports count): move the shared type down to the lower module.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|out)/' },
  },
};
