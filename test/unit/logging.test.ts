import { Writable } from 'node:stream';

import pino from 'pino';

import { forwardTemporalLog } from '../../src/bootstrap';
import { createLogger } from '../../src/common/logger';

function capture(): { lines: () => string; stream: Writable } {
  const chunks: string[] = [];
  return {
    lines: () => chunks.join(''),
    stream: new Writable({
      write(chunk, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
  };
}

describe('structured logs', () => {
  it('are JSON lines with a level name, an ISO time and the service name', () => {
    const output = capture();
    createLogger('info', { process: 'api' }, output.stream).info(
      { request_id: 'req_1' },
      'request completed',
    );
    expect(JSON.parse(output.lines())).toMatchObject({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      service: 'healthcare-access-api',
      process: 'api',
      request_id: 'req_1',
      msg: 'request completed',
    });
  });

  it('redact keys, secrets, bodies and patients if an object is logged by mistake', () => {
    const output = capture();
    createLogger('info', {}, output.stream).info({
      req: { headers: { authorization: 'Bearer hak_supersecret' } },
      secret: 'whsec_value',
      body: { first_name: 'Ines' },
      patient: { last_name: 'Okonkwo' },
    });
    for (const leaked of ['hak_supersecret', 'whsec_value', 'Ines', 'Okonkwo'])
      expect(output.lines()).not.toContain(leaked);
    expect(output.lines()).toContain('[redacted]');
  });

  it("drop the error a failed workflow carries in the Temporal SDK's log entries", () => {
    const output = capture();
    const forward = forwardTemporalLog(pino({ level: 'warn' }, output.stream));
    forward({
      level: 'WARN',
      message: 'Workflow failed',
      timestampNanos: 0n,
      meta: {
        workflowId: 'pa_06h0',
        workflowType: 'priorAuthorizationWorkflow',
        error: new Error('Cannot process intake for Okonkwo'),
        input: { patient: 'Okonkwo' },
      },
    });
    const line = JSON.parse(output.lines());
    expect(line).toMatchObject({ msg: 'Workflow failed', workflowId: 'pa_06h0', err_name: 'Error' });
    expect(output.lines()).not.toContain('Okonkwo');
  });
});
