import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../project-root';
import type { FhirResource } from '../crd/cds-hooks';

/**
 * The sandbox payer's DTR packages as `npm run generate:dtr` wrote them to catalog/dtr/: per drug with
 * criteria its Questionnaire, the CQL library answering it (CQL and ELM) and FHIRHelpers, which the
 * manifest lists. Read on first use and kept: the catalog never changes while the process runs.
 */

export interface ManifestQuestionnaire {
  drug_id: string;
  url: string;
  version: string;
  /** Relative to catalog/dtr/. */
  path: string;
  /** The name of the library its items' expressions call. */
  library: string;
}

export interface ManifestLibrary {
  name: string;
  url: string;
  version: string;
  title: string;
  cql: string;
  elm: string;
  /** The names of the libraries it includes. */
  depends_on: string[];
  /** Of the CQL the ELM was compiled from, so a test tells a stale ELM without compiling. */
  cql_sha256: string;
  elm_sha256: string;
}

export interface DtrManifest {
  generated_by: string;
  translator: string;
  questionnaires: ManifestQuestionnaire[];
  libraries: ManifestLibrary[];
}

export interface PackageBundle {
  resourceType: 'Bundle';
  id: string;
  type: 'collection';
  entry: Array<{ fullUrl: string; resource: FhirResource }>;
}

export interface SandboxDtrPackage {
  drugId: string;
  /** The Questionnaire's canonical url, and its version: `url|version` names this package. */
  url: string;
  version: string;
  /** The Questionnaire, its library and the libraries that one includes, as DTR's package Bundle. */
  bundle: PackageBundle;
}

export const DTR_CATALOG_DIRECTORY = path.join(projectRoot(), 'catalog/dtr');

const LIBRARY_TYPE = 'http://terminology.hl7.org/CodeSystem/library-type';

let packages: ReadonlyMap<string, SandboxDtrPackage> | undefined;

export function readDtrManifest(directory = DTR_CATALOG_DIRECTORY): DtrManifest {
  return JSON.parse(readFileSync(path.join(directory, 'manifest.json'), 'utf8')) as DtrManifest;
}

/** The shipped packages by their Questionnaire's url (unversioned). */
export function sandboxDtrPackages(): ReadonlyMap<string, SandboxDtrPackage> {
  packages ??= loadDtrPackages(DTR_CATALOG_DIRECTORY);
  return packages;
}

export function loadDtrPackages(directory: string): ReadonlyMap<string, SandboxDtrPackage> {
  const manifest = readDtrManifest(directory);
  const read = (file: string) => readFileSync(path.join(directory, file));
  const libraries = new Map(manifest.libraries.map((library) => [library.name, library]));
  const libraryNamed = (name: string): ManifestLibrary => {
    const library = libraries.get(name);
    if (!library) throw new Error(`catalog/dtr/manifest.json lists no library ${name}`);
    return library;
  };
  const resources = new Map(
    manifest.libraries.map((library) => [library.name, libraryResource(library, read, libraryNamed)]),
  );
  /** A library and, before it, what it includes, each once. */
  const withDependencies = (name: string, into: string[] = []): string[] => {
    for (const dependency of libraryNamed(name).depends_on) withDependencies(dependency, into);
    if (!into.includes(name)) into.push(name);
    return into;
  };
  return new Map(
    manifest.questionnaires.map((entry) => {
      const questionnaire = JSON.parse(read(entry.path).toString('utf8')) as FhirResource;
      const bundled = withDependencies(entry.library).reverse();
      const bundle: PackageBundle = {
        resourceType: 'Bundle',
        id: `dtr-package-${entry.drug_id}`,
        type: 'collection',
        entry: [
          { fullUrl: entry.url, resource: questionnaire },
          ...bundled.map((name) => ({ fullUrl: libraryNamed(name).url, resource: resources.get(name)! })),
        ],
      };
      return [entry.url, { drugId: entry.drug_id, url: entry.url, version: entry.version, bundle }];
    }),
  );
}

/** A FHIR Library carrying the CQL and the ELM it compiled to, as DTR's engines read them. */
function libraryResource(
  library: ManifestLibrary,
  read: (file: string) => Buffer,
  libraryNamed: (name: string) => ManifestLibrary,
): FhirResource {
  return {
    resourceType: 'Library',
    id: library.name,
    url: library.url,
    version: library.version,
    name: library.name,
    title: library.title,
    status: 'active',
    type: { coding: [{ system: LIBRARY_TYPE, code: 'logic-library' }] },
    ...(library.depends_on.length > 0 && {
      relatedArtifact: library.depends_on.map((name) => {
        const dependency = libraryNamed(name);
        return { type: 'depends-on', resource: `${dependency.url}|${dependency.version}` };
      }),
    }),
    content: [
      { contentType: 'text/cql', data: read(library.cql).toString('base64') },
      { contentType: 'application/elm+json', data: read(library.elm).toString('base64') },
    ],
  };
}
