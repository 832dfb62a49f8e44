/** Every side effect the workflows may ask for, built from injected dependencies. */
export type ActivityDependencies = Record<string, never>;

export const createActivities = (_deps: ActivityDependencies) => ({});
