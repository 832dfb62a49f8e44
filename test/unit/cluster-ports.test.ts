import { loadConfig } from '../../infrastructure/config/config';
import { CLUSTER_PORTS, clusterPortSettings, portPlan, portsOf } from '../../src/local/cluster-ports';

describe("the cluster's port settings laid out over one run of ports", () => {
  const first = 30_000;
  const config = loadConfig('local', { ...clusterPortSettings(first) });

  it('give each process and server a port of the run of its own, using all of it', () => {
    const used = portsOf(portPlan(config)).sort((a, b) => a - b);

    expect(used).toEqual(Array.from({ length: CLUSTER_PORTS }, (_, index) => first + index));
  });
});
