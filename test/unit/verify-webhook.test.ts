import jwt from 'jsonwebtoken';

import { verifyWebhook } from '../../clients/typescript/src';
import { signedHeaders } from '../../infrastructure/webhooks/signing';

const ENDPOINT = { endpointId: 'wh_receiver', secret: 'whsec_verify_webhook_0001' };
const ISSUER = 'healthcare-access-api';
const BODY = JSON.stringify({ id: 'evt_1', type: 'webhook.test', data: { id: ENDPOINT.endpointId } });

/** The headers the service sends for BODY, signed by its own signing code. */
const signed = (issuer = ISSUER) =>
  signedHeaders(
    BODY,
    { id: 'evt_1', type: 'webhook.test' },
    { id: ENDPOINT.endpointId, secret: ENDPOINT.secret },
    issuer,
  );

/** The service's token for BODY with its claims changed, signed as `algorithm` with `secret`. */
function forged(
  claims: Record<string, unknown>,
  algorithm: jwt.Algorithm = 'HS256',
  secret = ENDPOINT.secret,
) {
  const original = jwt.decode(signed()['X-Webhook-Secret']!) as Record<string, unknown>;
  return { ...signed(), 'X-Webhook-Secret': jwt.sign({ ...original, ...claims }, secret, { algorithm }) };
}

const verify = (headers: Record<string, string>, options = {}) =>
  verifyWebhook(ENDPOINT, headers, Buffer.from(BODY), options);

describe('verifyWebhook', () => {
  it('accepts what the service signs, whatever the case of the header names', () => {
    const lowerCased = Object.fromEntries(
      Object.entries(signed()).map(([name, value]) => [name.toLowerCase(), value]),
    );
    expect(verify(signed())).toMatchObject({ ok: true, notification: { id: 'evt_1' } });
    expect(verify(lowerCased)).toMatchObject({ ok: true });
  });

  it('refuses a token signed with another algorithm, even under the same secret', () => {
    expect(verify(forged({}, 'HS512'))).toEqual({ ok: false, reason: 'token not signed with HS256' });
  });

  it('refuses an unsigned token', () => {
    const claims = signed()['X-Webhook-Secret']!.split('.')[1];
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verify({ ...signed(), 'X-Webhook-Secret': `${none}.${claims}.` })).toMatchObject({ ok: false });
  });

  it('refuses a token of another issuer unless told the issuer the service is configured with', () => {
    expect(verify(signed('clinic-staging'))).toEqual({
      ok: false,
      reason: 'token not issued by the service',
    });
    expect(verify(signed('clinic-staging'), { issuer: 'clinic-staging' })).toMatchObject({ ok: true });
  });

  it('refuses a token whose X-Webhook-Id is not the event it names', () => {
    expect(verify({ ...signed(), 'X-Webhook-Id': 'evt_2' })).toEqual({
      ok: false,
      reason: 'X-Webhook-Id does not match the token',
    });
  });

  it('refuses a token that is not three parts', () => {
    expect(verify({ ...signed(), 'X-Webhook-Secret': 'not-a-token' })).toEqual({
      ok: false,
      reason: 'malformed token',
    });
  });

  it('allows 30 seconds of clock difference past exp, and no more', () => {
    const expiredAt = Math.floor(Date.now() / 1000) - 10;
    expect(verify(forged({ exp: expiredAt }))).toMatchObject({ ok: true });
    expect(verify(forged({ exp: expiredAt - 30 }))).toEqual({ ok: false, reason: 'token expired' });
  });

  it('refuses to verify without an endpoint id', () => {
    expect(verifyWebhook({ ...ENDPOINT, endpointId: '' }, signed(), Buffer.from(BODY))).toMatchObject({
      ok: false,
    });
  });
});
