import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';

import { callConnector } from '../../activities/connector-failures';
import { ConnectorError, PAYER_ANSWER_UNREADABLE, PAYER_REJECTED } from '../../domain/failures';
import {
  MalformedPasResponseError,
  retryableInquiryError,
} from '../../infrastructure/connectors/pas/pas-errors';
import { failureEnding } from '../../workflows/case-failures';
import { UNREACHABLE_PAYER_ENDING } from '../../workflows/prior-authorization.workflow';

const unreadable = new MalformedPasResponseError('Expected a Bundle', '$.resourceType');

async function failureOf(error: Error): Promise<ApplicationFailure> {
  return (await callConnector('payer', () => Promise.reject(error)).catch(
    (thrown: unknown) => thrown,
  )) as ApplicationFailure;
}

function endingOf(cause: ApplicationFailure) {
  const failure = new ActivityFailure('failed', 'submit', '1', RetryState.NON_RETRYABLE_FAILURE, 'w', cause);
  return failureEnding(failure, UNREACHABLE_PAYER_ENDING);
}

describe("A payer's answer the connector cannot read", () => {
  it('fails a submission once, as unreadable rather than refused, naming the rule and path', async () => {
    const failure = await failureOf(unreadable);
    expect(failure).toMatchObject({ type: PAYER_ANSWER_UNREADABLE, nonRetryable: true });
    expect(failure.message).toBe('Expected a Bundle (at $.resourceType).');
  });

  it("ends the case saying the payer's answer could not be read, not that the payer refused", async () => {
    expect(endingOf(await failureOf(unreadable))).toEqual({
      reason: "The payer's answer could not be read.",
      failure: {
        code: 'payer_rejected',
        message: "The payer's answer could not be read; ask the payer for the request's status.",
      },
    });
  });

  it('is retried when it answers an inquiry, and names the unreadable answer if the retries run out', async () => {
    const failure = await failureOf(retryableInquiryError(unreadable));
    expect(failure).toMatchObject({ type: PAYER_ANSWER_UNREADABLE, nonRetryable: false });
    expect(endingOf(failure).failure.message).toBe(
      "The payer's answer could not be read; ask the payer for the request's status.",
    );
  });

  it('leaves a payer that refused the request refused', async () => {
    const failure = await failureOf(
      new ConnectorError('The PAS endpoint answered HTTP 400.', { transient: false }),
    );
    expect(failure.type).toBe(PAYER_REJECTED);
    expect(endingOf(failure).reason).toBe('The payer refused the request.');
  });
});
