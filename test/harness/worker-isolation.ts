import { databaseOfWorker, databaseUrlFor, jestWorkerId, testEnvironment } from './environment';

/**
 * Suites side by side each keep to their jest worker's own Temporal namespace and database, and so
 * do the processes they start (the API, workers, the admin CLI inherit this environment).
 */
const { namespace, sharedDatabaseUrl, runId } = testEnvironment();
process.env.TEMPORAL_NAMESPACE = namespace;
if (sharedDatabaseUrl) {
  process.env.TEST_DATABASE_URL = databaseUrlFor(sharedDatabaseUrl, databaseOfWorker(runId, jestWorkerId()));
}
