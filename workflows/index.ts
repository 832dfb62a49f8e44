// The worker's single entry into workflow code: every workflow is re-exported here by name.
export {};
