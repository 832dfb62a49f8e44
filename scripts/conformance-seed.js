// Creates one case of each kind through the API and prints shell exports of their ids, so the
// conformance run reaches operations on existing objects instead of only answering 404.
// Usage: node scripts/conformance-seed.js <base URL> <API key>
'use strict';
/* global fetch */

const [baseUrl, apiKey] = process.argv.slice(2);

const patient = {
  internal_id: 'conformance-patient',
  first_name: 'Corisande',
  last_name: 'Testperson',
  gender: 'female',
  date_of_birth: '1968-05-14',
};
const provider = { npi: '1234567893', first_name: 'Amadou', last_name: 'Reviewsworth' };
const insuranceContent = {
  payer: 'Blue Horizon Health',
  member_id: 'ZZBHH123456789',
  plan_type: 'commercial',
};

const requests = {
  CONFORMANCE_PA_ID: [
    '/prior-authorization',
    {
      patient,
      provider,
      insurance_content: insuranceContent,
      diagnoses: [{ code: 'E11.9' }],
      prescription: { drug_name: 'Ozempic 1 mg pen', quantity: 1, days_supply: 28 },
    },
  ],
  CONFORMANCE_BV_ID: [
    '/benefit-verification',
    { patient, provider, insurance_content: insuranceContent, drugs: [{ name: 'Ozempic', quantity: 1 }] },
  ],
  CONFORMANCE_PE_ID: [
    '/patient-enrollment',
    {
      patient: {
        first_name: patient.first_name,
        last_name: patient.last_name,
        date_of_birth: patient.date_of_birth,
        address: {
          street: '12 Example Way',
          city: 'Springfield',
          state_province: 'IL',
          zip_postal_code: '62701',
          country: 'US',
        },
        email: 'corisande@example.test',
        phone: '+1 217 555 0100',
      },
      programId: 'prog_01jnzn5t37ydrsw602nch4aqg1',
      prescription: { drug_name: 'Ozempic' },
    },
  ],
};

async function create(path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text).data.id;
}

async function main() {
  for (const [name, [path, body]] of Object.entries(requests)) {
    console.log(`export ${name}=${await create(path, body)}`);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
