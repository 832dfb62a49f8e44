/** The DTR command's help, apart from the command so the CLI lists it without loading the CQL engine. */
export const DTR_USAGE = `  dtr:prepopulate --package FILE --bundle FILE [--now ISO] [--context REF …] [--patient ID]
                  [--served FILE]
                                                   prefill a payer's DTR questionnaire package (its
                                                   $questionnaire-package answer, or the Bundle) from a
                                                   patient's FHIR Bundle with the package's CQL; prints
                                                   the QuestionnaireResponse. --context names the order
                                                   (DeviceRequest/ID) the CQL reads; --now is CQL's Now()
                                                   (default: now); --served prefills, for an adaptive
                                                   package, the questions one of its $next-question
                                                   answers served (or a Questionnaire) instead of the
                                                   package's own. Reads files only, no database`;
