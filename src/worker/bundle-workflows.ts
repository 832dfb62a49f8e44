import { writeFileSync } from 'node:fs';

import { bundleProductionWorkflows, WORKFLOW_BUNDLE_PATH } from './worker';

/** Prebuilds the workflow bundle so production workers start without webpack. Fails the build loudly. */
async function main(): Promise<void> {
  writeFileSync(WORKFLOW_BUNDLE_PATH, await bundleProductionWorkflows());
  process.stdout.write(`Workflow bundle written to ${WORKFLOW_BUNDLE_PATH}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`Bundling workflows failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
