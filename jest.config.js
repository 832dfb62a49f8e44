/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Type checking is `npm run check`'s job; transpiling alone keeps the suite fast on two cores.
  transform: { '^.+\\.ts$': 'ts-jest' },
  setupFiles: [
    '<rootDir>/test/harness/quiet-temporal-runtime.ts',
    '<rootDir>/test/harness/worker-isolation.ts',
  ],
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  testTimeout: 90_000,
  // A fresh worker process for every test file. Each file leaves native and WebAssembly memory behind
  // (Temporal's runtime and workflow contexts, PGlite), which jest's heap-based limit does not see:
  // side by side, three workers grew past 7 GB each by the last third of the suite, on 24 GB without swap.
  workerIdleMemoryLimit: 0,
  verbose: true,
};
