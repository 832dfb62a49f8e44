/**
 * Carries an X12 interchange to a payer and brings back the payer's answer: a 270 out, a 271 back.
 * The wire format is all it knows; building the 270 and reading the 271 happen on either side of it,
 * the same way for the live clearinghouse and the sandbox's simulated one.
 */
export interface Clearinghouse {
  exchange(interchange: string): Promise<string>;
}
