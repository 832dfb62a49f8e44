import { readFileSync } from 'node:fs';

import { freePort } from '../../infrastructure/temporal/dev-server';

const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('choosing a free port', () => {
  afterEach(() => jest.restoreAllMocks());

  it('never chooses a port reserved for a process about to start, though nothing listens on it yet', async () => {
    const reserved = await freePort();
    // The first random draw lands on the reserved port, as it did for a launcher whose Temporal
    // server took the API's port for its metrics endpoint.
    const [firstEphemeral] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    const span = Number(firstEphemeral) - 20_000;
    jest.spyOn(Math, 'random').mockReturnValueOnce((reserved - 20_000 + 0.5) / span);

    const chosen = await freePort([reserved]);

    expect(chosen).not.toBe(reserved);
  });
});
