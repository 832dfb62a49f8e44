/** Injection tokens for what the composition root builds outside Nest and hands in. */
export const APP_CONFIG = Symbol('AppConfig');
export const DATABASE = Symbol('Database');
export const TEMPORAL_CLIENT = Symbol('TemporalClient');
export const LOGGER = Symbol('Logger');
