/**
 * The lookup's answer in the API document. A lookup by NPI answers one record and a search a list of
 * them, which one published object cannot declare, so the two are described here side by side.
 */
const ADDRESS = {
  type: ['object', 'null'],
  required: ['line1', 'line2', 'city', 'state', 'postal_code', 'phone'],
  properties: {
    line1: { type: 'string' },
    line2: { type: ['string', 'null'] },
    city: { type: 'string' },
    state: { type: 'string', description: 'Two-letter state code.' },
    postal_code: { type: 'string', description: 'Five or nine digits, as the registry prints it.' },
    phone: { type: ['string', 'null'] },
  },
};

export const PROVIDER_REGISTRY_RECORD_SCHEMA = {
  type: 'object',
  description: "One NPI registry record: public directory data, the registry's words.",
  required: ['object', 'npi', 'type', 'name', 'credential', 'taxonomy', 'practice_address', 'active'],
  properties: {
    object: { const: 'provider_registry_record' },
    npi: { type: 'string', pattern: '^[0-9]{10}$' },
    type: { type: 'string', enum: ['individual', 'organization'] },
    name: {
      type: 'string',
      description: "An individual's name as the registry prints it, or the organization's.",
    },
    credential: { type: ['string', 'null'], example: 'MD' },
    taxonomy: {
      type: ['object', 'null'],
      description: 'The primary taxonomy: its NUCC code and description.',
      required: ['code', 'description'],
      properties: { code: { type: 'string' }, description: { type: 'string' } },
    },
    practice_address: { ...ADDRESS, description: 'The practice location (not the mailing address).' },
    active: { type: 'boolean', description: 'False for a deactivated NPI.' },
  },
};

const envelope = (data: object) => ({
  type: 'object',
  required: ['status', 'error', 'data'],
  properties: { status: { const: 'success' }, error: { type: 'null' }, data },
});

export const LOOKUP_ANSWER_SCHEMA = {
  oneOf: [
    envelope(PROVIDER_REGISTRY_RECORD_SCHEMA),
    envelope({
      type: 'object',
      required: ['object', 'data', 'has_more', 'next_cursor'],
      properties: {
        object: { const: 'list' },
        data: { type: 'array', maxItems: 20, items: PROVIDER_REGISTRY_RECORD_SCHEMA },
        has_more: { type: 'boolean' },
        next_cursor: { type: 'null' },
      },
    }),
  ],
};
