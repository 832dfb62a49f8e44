import { readDocument } from '../../infrastructure/documents/read-document';
import { DEFAULT_READING_LIMITS } from '../../infrastructure/documents/reading-limits';
import { blankPage, lineOf, scriptedReaders, wordAt } from '../support/scripted-readers';

const sureLine = lineOf(
  wordAt('MEMBER', 20, 40, 100),
  wordAt('ID', 140, 40, 30),
  wordAt('W123456789', 200, 40, 160),
  wordAt('GROUP', 400, 40, 80),
);

describe('the two readers of a page', () => {
  it('read it side by side: the second starts while the first is still reading', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const secondStarted = new Promise<void>((resolve) => (release = resolve));
    const engine = scriptedReaders({
      first: [sureLine],
      second: [],
      async onRecognise() {
        events.push('first reader starts');
        await Promise.race([secondStarted, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        events.push('first reader ends');
      },
      onReadLines() {
        events.push('second reader starts');
        release();
      },
    });
    await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS);
    expect(events).toEqual(['first reader starts', 'second reader starts', 'first reader ends']);
  });
});
