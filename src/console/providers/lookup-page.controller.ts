import { ConsolePages } from '../console-pages';

/** Placeholder until this page is built (issue 46). */
@ConsolePages('providers/lookup', 'provider')
export class RegistryLookupPageController {}
