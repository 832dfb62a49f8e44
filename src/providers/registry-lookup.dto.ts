import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, ValidateIf } from 'class-validator';

import { ExactlyOneOf, IsNpi } from '../common/dto/case-validators';

/**
 * A last name as a person writes it: Latin letters, accented or not, then letters, spaces, hyphens,
 * apostrophes or periods. Spelled out rather than `\p{L}`, since the API document's pattern must
 * read the same without the Unicode flag in every client.
 */
const LAST_NAME = /^[A-Za-zÀ-ÖØ-öø-ÿĀ-ž][A-Za-zÀ-ÖØ-öø-ÿĀ-ž '’.-]*$/;
const STATE = /^[A-Za-z]{2}$/;

type NameSearch = { last_name?: string; state?: string };

/** Either half of the search by name given asks for the other. */
const searchingByName = (query: NameSearch) => query.last_name != null || query.state != null;

/** `GET /providers/lookup`: one NPI, or a last name with a state; exactly one of the two. */
export class RegistryLookupQueryDto {
  @ApiPropertyOptional({
    description: 'The NPI to look up. Give it, or last_name with state.',
    example: '1234567893',
  })
  @ExactlyOneOf(['npi', 'last_name'])
  @IsNpi()
  npi?: string;

  @ApiPropertyOptional({
    // No example: the document's examples are sent together, and a lookup takes one form only.
    description:
      "An individual prescriber's last name, whole (no wildcards), with state (e.g. Quintero, OR).",
  })
  @ValidateIf(searchingByName)
  @IsString()
  @Length(1, 60)
  @Matches(LAST_NAME, {
    message: 'must be a last name: letters, with spaces, hyphens, apostrophes or periods between them',
  })
  last_name?: string;

  @ApiPropertyOptional({
    description: 'The two-letter state of the practice location, with last_name.',
  })
  @ValidateIf(searchingByName)
  @IsString()
  @Matches(STATE, { message: 'must be a two-letter state code such as OR' })
  state?: string;
}
