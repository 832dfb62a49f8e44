import { DefaultLogger, Runtime } from '@temporalio/worker';

// The SDK logs every bundle and state change at INFO; tests only want to hear about problems.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed for this process by an earlier test file.
}
