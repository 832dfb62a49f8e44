import { caseEventId, finalCaseEventId } from '../../domain/webhooks/case-event-ids';

describe('case event ids', () => {
  it('are the same for the same case and occurrence, in the format of every event id', () => {
    expect(caseEventId('pa_06h1a7zzgcnarp3z3nvbxhe4gg', '3:awaiting_outcome')).toBe(
      caseEventId('pa_06h1a7zzgcnarp3z3nvbxhe4gg', '3:awaiting_outcome'),
    );
    expect(caseEventId('pa_06h1a7zzgcnarp3z3nvbxhe4gg', '3:awaiting_outcome')).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('differ between occurrences, cases and the final notification', () => {
    const cases = Array.from({ length: 200 }, (_, index) => `pa_06h1a7zzgcnarp3z3nvbxhe${index}`);
    const occurrences = ['1:processing', '2:awaiting_review', '3:awaiting_outcome', '3:failed'];
    const ids = cases.flatMap((caseId) => [
      finalCaseEventId(caseId),
      ...occurrences.map((occurrence) => caseEventId(caseId, occurrence)),
    ]);
    expect(new Set(ids).size).toBe(cases.length * (occurrences.length + 1));
  });
});
