import {
  NAME_SUFFIXES,
  registryLastName,
  registryNameMatches,
  registrySpelling,
} from '../../../domain/providers/name-match';
import type { RegistryProvider } from '../../../domain/providers/npi-registry';

function individual(first: string, last: string, extra: Partial<RegistryProvider> = {}): RegistryProvider {
  return {
    npi: '1000000012',
    type: 'individual',
    name: `${first} ${last}`,
    first_name: first,
    last_name: last,
    credential: 'MD',
    taxonomy: null,
    practice_address: null,
    active: true,
    ...extra,
  };
}

/** A small deterministic generator, so a failure replays from the printed seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('a request names the prescriber the registry lists', () => {
  const elodie = individual('ELODIE', "D'ARCY-NGUYEN");

  it('matches the same name in any case and with or without accents', () => {
    expect(registryNameMatches(elodie, 'Élodie', "d'Arcy-Nguyen")).toBe(true);
    expect(registryNameMatches(elodie, 'elodie', "D'ARCY-NGUYEN")).toBe(true);
    expect(registryNameMatches(individual('LUKASZ', 'OSTERGAARD'), 'Łukasz', 'Østergaard')).toBe(true);
    expect(registryNameMatches(individual('AEVAR', 'STRASSE'), 'Ævar', 'Straße')).toBe(true);
  });

  it('reads full-width letters and ligatures as the letters they stand for', () => {
    expect(registrySpelling('Ｇａｒｃíａ')).toBe('GARCIA');
    expect(registrySpelling('Griﬃn')).toBe('GRIFFIN');
    expect(registryNameMatches(individual('JOSE', 'GARCIA'), 'Ｊｏｓé', 'Ｇａｒｃíａ')).toBe(true);
  });

  it('reads hyphens, spaces and apostrophes in a last name as the same name', () => {
    expect(registryNameMatches(elodie, 'Elodie', 'Darcy Nguyen')).toBe(true);
    expect(registryNameMatches(elodie, 'Elodie', 'D’Arcy Nguyen')).toBe(true);
    expect(registryNameMatches(elodie, 'Elodie', 'DArcyNguyen')).toBe(true);
  });

  it('spells a typographic apostrophe as the plain one the registry prints', () => {
    expect(registrySpelling('O’Brien')).toBe("O'BRIEN");
    expect(registrySpelling('Oʼbrien')).toBe("O'BRIEN");
    expect(registryNameMatches(individual('SEAN', "O'BRIEN"), 'Seán', 'Oʼbrien')).toBe(true);
  });

  it('takes a first initial for the first name, with or without its period', () => {
    expect(registryNameMatches(elodie, 'E', "D'Arcy-Nguyen")).toBe(true);
    expect(registryNameMatches(elodie, 'E.', "D'Arcy-Nguyen")).toBe(true);
    expect(registryNameMatches(individual('J', 'SMITH'), 'Jane', 'Smith')).toBe(true);
  });

  it('refuses another first name, another initial, or part of the last name', () => {
    expect(registryNameMatches(elodie, 'Eloise', "D'Arcy-Nguyen")).toBe(false);
    expect(registryNameMatches(elodie, 'M', "D'Arcy-Nguyen")).toBe(false);
    expect(registryNameMatches(elodie, 'Elodie', 'Nguyen')).toBe(false);
    expect(registryNameMatches(elodie, 'Elodie', "D'Arcy")).toBe(false);
  });

  it('takes a first name typed with the middle name the registry keeps apart', () => {
    const maryAnn = individual('MARY', 'SMITH', { middle_name: 'ANN' });
    expect(registryNameMatches(maryAnn, 'Mary Ann', 'Smith')).toBe(true);
    expect(registryNameMatches(maryAnn, 'Mary-Ann', 'Smith')).toBe(true);
    expect(registryNameMatches(maryAnn, 'MaryAnn', 'Smith')).toBe(true);
    expect(registryNameMatches(maryAnn, 'Mary A.', 'Smith')).toBe(true);
  });

  it('takes a first name whose first word is the registered first name', () => {
    const mary = individual('MARY', 'SMITH');
    expect(registryNameMatches(mary, 'Mary Ann', 'Smith')).toBe(true);
    expect(registryNameMatches(mary, '  Mary   Beth ', 'Smith')).toBe(true);
  });

  it('refuses another first name however the middle name is written', () => {
    const maryAnn = individual('MARY', 'SMITH', { middle_name: 'ANN' });
    expect(registryNameMatches(maryAnn, 'Ann', 'Smith')).toBe(false);
    expect(registryNameMatches(maryAnn, 'Ann Mary', 'Smith')).toBe(false);
    expect(registryNameMatches(maryAnn, 'Marian', 'Smith')).toBe(false);
    expect(registryNameMatches(maryAnn, 'Maryanne', 'Smith')).toBe(false);
    expect(registryNameMatches(individual('MARY', 'SMITH'), 'MaryAnn', 'Smith')).toBe(false);
    expect(registryNameMatches(individual('MARY', 'SMITH'), 'Mary-Ann', 'Smith')).toBe(false);
    expect(registryNameMatches(individual('JOHN', 'SMITH', { middle_name: 'MARY' }), 'Mary', 'Smith')).toBe(
      false,
    );
  });

  it("takes the middle name of one of the registry's other names", () => {
    const renamed = individual('MARY', 'JONES', {
      other_names: [{ first_name: 'MARY', middle_name: 'ANN', last_name: 'SMITH' }],
    });
    expect(registryNameMatches(renamed, 'MaryAnn', 'Smith')).toBe(true);
    expect(registryNameMatches(renamed, 'MaryAnn', 'Jones')).toBe(false);
  });

  it('drops a generational suffix written after the last name, on either side', () => {
    const smith = individual('JOHN', 'SMITH');
    for (const written of [
      'Smith Jr',
      'Smith Jr.',
      'Smith, Jr.',
      'SMITH SR',
      'Smith II',
      'Smith III',
      'Smith IV',
    ])
      expect(registryNameMatches(smith, 'John', written)).toBe(true);
    expect(registryNameMatches(individual('JOHN', 'SMITH JR'), 'John', 'Smith')).toBe(true);
    expect(registryNameMatches(individual('JOHN', 'SMITH, III'), 'John', 'Smith IV')).toBe(true);
    expect(registryNameMatches(individual('JOHN', 'ST JOHN'), 'John', 'St. John Jr.')).toBe(true);
  });

  it('drops a degree written after the last name, and a suffix with it', () => {
    const smith = individual('JOHN', 'SMITH');
    for (const written of [
      'Smith MD',
      'Smith, M.D.',
      'Smith DO',
      'Smith, Ph.D.',
      'Smith PA-C',
      'Smith Jr., MD',
    ])
      expect(registryNameMatches(smith, 'John', written)).toBe(true);
    expect(registryNameMatches(individual('JOHN', 'SMITH, DDS'), 'John', 'Smith')).toBe(true);
  });

  it('asks the registry for a last name without what NPPES keeps apart from it', () => {
    expect(registryLastName(' Smith Jr. ')).toBe('SMITH');
    expect(registryLastName('Núñez, III')).toBe('NUNEZ');
    expect(registryLastName('O’Brien, M.D.')).toBe("O'BRIEN");
    expect(registryLastName('St. John Sr')).toBe('ST. JOHN');
    expect(registryLastName('Do')).toBe('DO');
    expect(registryLastName('Smithjr')).toBe('SMITHJR');
  });

  it('keeps a suffix that is not written apart, and a last name that is only the suffix', () => {
    const smith = individual('JOHN', 'SMITH');
    expect(registryNameMatches(smith, 'John', 'Smithjr')).toBe(false);
    expect(registryNameMatches(smith, 'John', 'Smith V')).toBe(false);
    expect(registryNameMatches(smith, 'John', 'Smith Junior Esq')).toBe(false);
    expect(registryNameMatches(smith, 'John', 'Jones Jr.')).toBe(false);
    expect(registryNameMatches(individual('JOHN', 'II'), 'John', 'II')).toBe(true);
    expect(registryNameMatches(individual('JOHN', 'II'), 'John', 'Smith II')).toBe(false);
  });

  it('refuses empty names and never matches an organization', () => {
    expect(registryNameMatches(elodie, '', "D'Arcy-Nguyen")).toBe(false);
    expect(registryNameMatches(elodie, 'Elodie', ' ')).toBe(false);
    const organization = individual('X', 'Y', {
      type: 'organization',
      name: 'SANDBOX FAMILY PRACTICE',
      first_name: null,
      last_name: null,
    });
    expect(registryNameMatches(organization, 'Sandbox', 'Practice')).toBe(false);
  });

  it('matches one of the other names the registry lists for the person', () => {
    const renamed = individual('AMADOU', 'REVIEWSWORTH', {
      other_names: [{ first_name: 'DEMO', last_name: 'PRESCRIBER' }],
    });
    expect(registryNameMatches(renamed, 'Demo', 'Prescriber')).toBe(true);
    expect(registryNameMatches(renamed, 'Demo', 'Reviewsworth')).toBe(false);
  });

  it('matches any name written back differently, and no name with a letter changed (generated names)', () => {
    const seed = Number(process.env.NAME_MATCH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    process.stdout.write(`registry name match seed ${seed} (replay with NAME_MATCH_SEED=${seed})\n`);
    const next = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const accented: Record<string, string> = { A: 'Á', E: 'É', I: 'Ï', O: 'Ô', U: 'Ü', C: 'Ç', N: 'Ñ' };
    const word = () => Array.from({ length: 2 + Math.floor(next() * 8) }, () => pick([...letters])).join('');
    const separators = ['-', ' ', "'", '’', ''];

    for (let round = 0; round < 500; round += 1) {
      const first = word();
      // A last word that is a suffix (`SMITH JR`, `SMITH MD`) is the suffix rule's, tested above.
      const lastParts = Array.from({ length: 1 + Math.floor(next() * 3) }, word).filter(
        (part, index) => index === 0 || !NAME_SUFFIXES.includes(part),
      );
      const registered = individual(first, lastParts.join(pick(['-', ' ', "'"])));
      // The way a clinic might type the same name: any case, accents, other separators, an initial.
      const retype = (text: string) =>
        [...text]
          .map((letter) => (next() < 0.2 && accented[letter] ? accented[letter] : letter))
          .map((letter) => (next() < 0.5 ? letter.toLowerCase() : letter))
          .join('');
      const typedFirst = next() < 0.3 ? `${first[0]}${pick(['', '.'])}` : retype(first);
      const typedLast = lastParts.map(retype).join(pick(separators));
      expect(registryNameMatches(registered, typedFirst, typedLast)).toBe(true);

      const at = Math.floor(next() * typedLast.length);
      const changed = letters[(letters.indexOf(typedLast[at]!.toUpperCase()) + 1) % letters.length]!;
      if (letters.includes(typedLast[at]!.toUpperCase())) {
        const misspelt = `${typedLast.slice(0, at)}${changed}${typedLast.slice(at + 1)}`;
        expect(registryNameMatches(registered, typedFirst, misspelt)).toBe(false);
      }
    }
  });
});
