import { comparableName } from '../../../domain/providers/name-match';
import { typedNameMatches } from '../../../domain/providers/provider-authorization';

describe('the name a prescriber types to sign', () => {
  it('matches their first and last name whatever the case, accents, apostrophes and hyphens', () => {
    expect(typedNameMatches("elodie d'arcy nguyen", 'Élodie', "D'Arcy-Nguyen")).toBe(true);
    expect(typedNameMatches('  ÉLODIE   D’ARCY-NGUYEN ', 'Elodie', "D'Arcy-Nguyen")).toBe(true);
    expect(typedNameMatches('Amadou Reviewsworth', 'Amadou', 'Reviewsworth')).toBe(true);
  });

  it('reads letters Unicode does not split and full-width letters as the registry check reads them', () => {
    expect(typedNameMatches('Søren Łukasiewicz', 'Soren', 'Lukasiewicz')).toBe(true);
    expect(typedNameMatches('Ævar Ødegård', 'AEVAR', 'ODEGARD')).toBe(true);
    expect(typedNameMatches('Ｊｏｓé Ｇａｒｃíａ', 'José', 'García')).toBe(true);
  });

  it('does not match another name, a last name alone, or nothing', () => {
    expect(typedNameMatches('Elodie Smith', 'Élodie', "D'Arcy-Nguyen")).toBe(false);
    expect(typedNameMatches('Reviewsworth', 'Amadou', 'Reviewsworth')).toBe(false);
    expect(typedNameMatches('   ', 'Amadou', 'Reviewsworth')).toBe(false);
  });

  it('compares names with accents, case, punctuation and spacing set aside', () => {
    expect(comparableName("José O'Brien")).toBe(comparableName('jose obrien'));
  });
});
