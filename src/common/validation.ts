import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/**
 * The one validation step of the service: strict (unknown fields are errors, so typos surface),
 * and every violation reported with its full field path in a single 400.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestException(flatten(errors)),
  });
}

function flatten(errors: ValidationError[], parentPath = ''): string[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property)
      ? `${parentPath}[${error.property}]`
      : parentPath
        ? `${parentPath}.${error.property}`
        : error.property;
    const own = Object.values(error.constraints ?? {}).flatMap((issue) =>
      issue.startsWith(SUB_FIELD_MARK)
        ? issue.split('\n').map((line) => `${field}.${line.slice(SUB_FIELD_MARK.length)}`)
        : [`${field}: ${stripPropertyName(issue, error.property)}`],
    );
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Starts a rule's message that names fields inside the validated object rather than the object. */
const SUB_FIELD_MARK = '\u0000';

/**
 * The message of a rule on an object whose violations belong to fields inside it (a required field
 * the object lacks), so each is reported at its own path: `insurance_content.member_id`.
 */
export function subFieldIssues(issues: ReadonlyArray<readonly [field: string, issue: string]>): string {
  return issues.map(([field, issue]) => `${SUB_FIELD_MARK}${field}: ${issue}`).join('\n');
}

/** class-validator starts messages with the property name; the detail already names the field. */
function stripPropertyName(issue: string, property: string): string {
  if (issue.startsWith('property ') && issue.endsWith(' should not exist')) return 'is not a known field';
  return issue.startsWith(`${property} `) ? issue.slice(property.length + 1) : issue;
}

/**
 * A number a person typed (a console field, a CLI flag), as a body field for this validation step:
 * whole digits as a number, anything else as typed, so the API's own rule names the mistake.
 */
export function wholeNumberOrText<Text extends string | undefined>(typed: Text): number | Text {
  return typed !== undefined && /^\d+$/.test(typed) ? Number(typed) : typed;
}
