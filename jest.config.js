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
  // Each test file leaves some memory behind in its worker (the Temporal runtime, Nest, PGlite); measured
  // side by side, three workers grew past 5 GB each within a third of the suite, so a worker that ends a
  // file above this is replaced before it takes the next one. (No effect in band: the serial group.)
  workerIdleMemoryLimit: '1500MB',
  verbose: true,
};
