import {
  acceptedStep,
  base32Decode,
  base32Encode,
  generateTotpSecret,
  hotp,
  otpauthUri,
  timeStep,
  totpCode,
} from '../../src/console/people/totp';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890", 8-digit codes.
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('time-based one-time codes (RFC 6238)', () => {
  it.each(RFC_VECTORS)('gives the RFC test vector at %i seconds', (seconds, expected) => {
    expect(hotp(RFC_SEED, timeStep(seconds * 1000), 8)).toBe(expected);
  });

  it('reads back the base32 secret it writes', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it('accepts the current code and the codes one step either side', () => {
    const secret = generateTotpSecret();
    const now = 1_800_000_000_000;
    for (const drift of [-30_000, 0, 30_000]) {
      expect(acceptedStep(secret, totpCode(secret, now + drift), now, null)).toBe(timeStep(now + drift));
    }
  });

  it('refuses a code two steps old', () => {
    const secret = generateTotpSecret();
    const now = 1_800_000_000_000;
    expect(acceptedStep(secret, totpCode(secret, now - 60_000), now, null)).toBeUndefined();
  });

  it('never accepts a code whose step already signed someone in', () => {
    const secret = generateTotpSecret();
    const now = 1_800_000_000_000;
    const code = totpCode(secret, now);
    expect(acceptedStep(secret, code, now, timeStep(now))).toBeUndefined();
  });

  it('refuses anything but six digits', () => {
    const secret = generateTotpSecret();
    expect(acceptedStep(secret, '12345a', Date.now(), null)).toBeUndefined();
    expect(acceptedStep(secret, '', Date.now(), null)).toBeUndefined();
  });

  it('names the issuer and the person in the address authenticator apps scan', () => {
    expect(otpauthUri('JBSWY3DPEHPK3PXP', 'ana@clinic.example')).toBe(
      'otpauth://totp/Healthcare%20Access%3Aana%40clinic.example?secret=JBSWY3DPEHPK3PXP&issuer=Healthcare+Access&algorithm=SHA1&digits=6&period=30',
    );
  });
});
