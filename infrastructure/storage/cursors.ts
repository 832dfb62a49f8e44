/** A cursor the repository did not issue for this kind of page; the edge answers 400 on `cursor`. */
export class InvalidCursorError extends Error {
  constructor() {
    super('The cursor is not one this list returned');
    this.name = 'InvalidCursorError';
  }
}
