import { writeFileSync } from 'node:fs';

import { bundleWorkflowCode } from '@temporalio/worker';

import { WORKFLOW_BUNDLE_PATH, WORKFLOW_INTERCEPTOR_MODULES } from './worker';

/** Prebuilds the workflow bundle so production workers start without webpack. Fails the build loudly. */
async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    failureConverterPath: require.resolve('../../infrastructure/temporal/failure-converter'),
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
  });
  writeFileSync(WORKFLOW_BUNDLE_PATH, code);
  process.stdout.write(`Workflow bundle written to ${WORKFLOW_BUNDLE_PATH}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`Bundling workflows failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
