import { DefaultFailureConverter } from '@temporalio/common';

/**
 * Failure messages and stack traces can quote case data, so they are moved into an encoded
 * payload (and therefore encrypted by the codec). Loaded by path into the workflow sandbox too,
 * hence its own module with no Node imports.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
