import { LookAlikeReader } from '../../domain/clinical/ocr-look-alikes';

describe('recognised text read where its look-alikes leave one reading', () => {
  const reader = new LookAlikeReader([
    'metformin',
    'glipizide',
    'glyburide',
    'betamethasone',
    'lisinopril',
    'Ozempic',
    'semaglutide',
  ]);

  it.each([
    ['Alc 8.9%', 'A1c 8.9%'],
    ['AIc: 9.1 %', 'A1c: 9.1 %'],
    ['HbAlc was 8.4 percent', 'HbA1c was 8.4 percent'],
    ['Hemoglobin A|c 70 mmol/mol', 'Hemoglobin A1c 70 mmol/mol'],
  ])('reads %s as an A1c', (read, meant) => {
    expect(reader.read(read)).toBe(meant);
  });

  it('leaves alone an abbreviation no percentage follows', () => {
    expect(reader.read('alc 2 drinks a week')).toBe('alc 2 drinks a week');
  });

  it('reads a drug name one letter away from exactly one catalog name as that name, in its own case', () => {
    expect(reader.read('Metformir 1000 mg twice daily')).toBe('Metformin 1000 mg twice daily');
  });

  it('leaves alone a near-miss that two catalog names are equally near', () => {
    const twins = new LookAlikeReader(['insulin', 'insulim']);
    expect(twins.read('insulir 10 units')).toBe('insulir 10 units');
  });

  it('never takes another drug for a catalog name, however few letters apart', () => {
    expect(reader.read('dexamethasone and fosinopril')).toBe('dexamethasone and fosinopril');
  });

  it('keeps the text its length, so citations quote the words as read at the same places', () => {
    const read = 'Alc 8.9% on Metformir';
    expect(reader.read(read)).toHaveLength(read.length);
  });

  it('never changes a word it knows or a short one', () => {
    expect(reader.read('metformin and diet')).toBe('metformin and diet');
  });
});
