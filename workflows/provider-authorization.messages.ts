import { defineQuery, defineUpdate } from '@temporalio/workflow';

import type {
  AuthorizationActor,
  ProviderAuthorization,
  ProviderSignature,
} from '../domain/providers/provider-authorization';

/** The prescriber's signature, from the signing page. */
export interface SignAuthorization {
  signature: ProviderSignature;
  requestId: string;
}

/** A revocation by the clinic (API, console) or by the prescriber (their revoke link). */
export interface RevokeAuthorization {
  actor: AuthorizationActor;
  requestId: string;
}

/** A provider authorization's messages, under the names Temporal sees. */
export const signAuthorizationUpdate = defineUpdate<ProviderAuthorization, [SignAuthorization]>(
  'signAuthorization',
);
export const revokeAuthorizationUpdate = defineUpdate<ProviderAuthorization, [RevokeAuthorization]>(
  'revokeAuthorization',
);
export const getAuthorizationQuery = defineQuery<ProviderAuthorization>('getAuthorization');
