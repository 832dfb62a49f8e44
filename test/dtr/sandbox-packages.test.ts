import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { SANDBOX_QUESTIONNAIRE_BASE } from '../../infrastructure/connectors/crd/simulated-crd-service';
import {
  DTR_CATALOG_DIRECTORY,
  readDtrManifest,
  sandboxDtrPackages,
} from '../../infrastructure/connectors/dtr/sandbox-packages';
import type { ManifestLibrary } from '../../infrastructure/connectors/dtr/sandbox-packages';
import { projectRoot } from '../../infrastructure/project-root';

interface GeneratedPackage {
  drugId: string;
  questionnairePath: string;
  questionnaire: unknown;
  cql: string;
  library: Omit<ManifestLibrary, 'cql_sha256' | 'elm_sha256'>;
}

// The generator is a plain Node script: it runs before any TypeScript is built.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dtrSources } = require('../../scripts/generate-dtr-packages.js') as {
  dtrSources: (
    criteria: unknown,
    drugs: unknown,
  ) => {
    packages: GeneratedPackage[];
    manifest: { libraries: Array<Omit<ManifestLibrary, 'cql_sha256' | 'elm_sha256'>> } & Record<
      string,
      unknown
    >;
  };
};

const REGENERATE = 'Run `npm run generate:dtr` and commit catalog/dtr/.';
const INITIAL_EXPRESSION =
  'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression';
const CQF_LIBRARY = 'http://hl7.org/fhir/StructureDefinition/cqf-library';

const readCatalog = (file: string): unknown =>
  JSON.parse(readFileSync(path.join(projectRoot(), 'catalog', file), 'utf8'));
const readDtr = (file: string): string => readFileSync(path.join(DTR_CATALOG_DIRECTORY, file), 'utf8');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const criteria = readCatalog('clinical/criteria.json') as { drugs: Array<{ drug_id: string }> };
const generated = dtrSources(criteria, readCatalog('drugs.json'));
const manifest = readDtrManifest();

interface QuestionnaireItem {
  linkId: string;
  required?: boolean;
  type: string;
  extension?: Array<{ url: string; valueExpression?: { language: string; expression: string } }>;
}

interface ElmLibrary {
  library: {
    identifier: { id: string; version: string };
    includes?: { def: Array<{ path: string; version: string }> };
    statements: { def: Array<{ name: string }> };
  };
}

function staleness(file: string): string {
  return `catalog/dtr/${file} is not what catalog/clinical/criteria.json gives now. ${REGENERATE}`;
}

describe("The sandbox's DTR packages (catalog/dtr/)", () => {
  it('are what the generator writes from the criteria now: Questionnaires, CQL and the manifest', () => {
    for (const pkg of generated.packages) {
      const committed = JSON.parse(readDtr(pkg.questionnairePath)) as unknown;
      if (JSON.stringify(committed) !== JSON.stringify(pkg.questionnaire))
        throw new Error(staleness(pkg.questionnairePath));
      if (readDtr(pkg.library.cql) !== pkg.cql) throw new Error(staleness(pkg.library.cql));
    }
    const withoutHashes = {
      ...manifest,
      libraries: manifest.libraries.map(({ cql_sha256: _cql, elm_sha256: _elm, ...library }) => library),
    };
    if (JSON.stringify(withoutHashes) !== JSON.stringify(generated.manifest))
      throw new Error(staleness('manifest.json'));
  });

  it('hold ELM compiled from the committed CQL, as the manifest records', () => {
    for (const library of manifest.libraries) {
      if (sha256(readDtr(library.cql)) !== library.cql_sha256) {
        throw new Error(`${library.elm} was compiled from other CQL than ${library.cql}. ${REGENERATE}`);
      }
      if (sha256(readDtr(library.elm)) !== library.elm_sha256) {
        throw new Error(`${library.elm} is not the translator's output the manifest records. ${REGENERATE}`);
      }
      const elm = JSON.parse(readDtr(library.elm)) as ElmLibrary;
      expect(elm.library.identifier).toMatchObject({ id: library.name, version: library.version });
      expect((elm.library.includes?.def ?? []).map((include) => include.path)).toEqual(library.depends_on);
    }
    expect(manifest.translator).toMatch(/^info\.cqframework:cql-to-elm:3\./);
  });

  it('give every drug with criteria a package, at the canonical the CRD service names', () => {
    const served = sandboxDtrPackages();
    expect([...served.keys()].sort()).toEqual(
      criteria.drugs.map((drug) => `${SANDBOX_QUESTIONNAIRE_BASE}/${drug.drug_id}`).sort(),
    );
  });

  it("ask every top-level criterion as a required boolean, prefilled by a define of the Questionnaire's library unless it asks for documents", () => {
    const libraries = new Map(manifest.libraries.map((library) => [library.name, library]));
    for (const entry of manifest.questionnaires) {
      const questionnaire = JSON.parse(readDtr(entry.path)) as {
        url: string;
        version: string;
        extension: Array<{ url: string; valueCanonical?: string }>;
        item: QuestionnaireItem[];
      };
      const library = libraries.get(entry.library)!;
      expect(questionnaire.extension).toContainEqual({
        url: CQF_LIBRARY,
        valueCanonical: `${library.url}|${library.version}`,
      });
      const defines = new Set(
        (JSON.parse(readDtr(library.elm)) as ElmLibrary).library.statements.def.map((def) => def.name),
      );
      const drug = (
        criteria.drugs as Array<{ drug_id: string; criteria: { all_of: CriterionShape[] } }>
      ).find((candidate) => candidate.drug_id === entry.drug_id)!;
      expect(questionnaire.item.map((item) => item.linkId)).toEqual(drug.criteria.all_of.map((c) => c.id));
      for (const [index, item] of questionnaire.item.entries()) {
        expect(item).toMatchObject({ type: 'boolean', required: true });
        const expression = item.extension?.find((extension) => extension.url === INITIAL_EXPRESSION);
        if (drug.criteria.all_of[index]!.check?.kind === 'documentation') {
          expect(expression).toBeUndefined();
          continue;
        }
        expect(expression?.valueExpression?.language).toBe('text/cql');
        const [, libraryName, define] =
          /^"([^"]+)"\.(.+)$/.exec(expression!.valueExpression!.expression) ?? [];
        expect(libraryName).toBe(library.name);
        expect(defines.has(define!)).toBe(true);
      }
    }
  });
});

interface CriterionShape {
  id: string;
  check?: { kind: string };
}
