import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Ranges a webhook may never reach unless explicitly allowed: everything that is not public
 * unicast (RFC 6890 special-purpose registries), so a customer-supplied URL cannot probe our
 * network, cloud metadata services or the loopback interface.
 */
const FORBIDDEN_RANGES: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 23, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

export class WebhookTargetPolicy {
  private readonly forbidden = new BlockList();
  private readonly allowed = new BlockList();

  constructor(allowedRanges: string[]) {
    for (const [address, prefix, family] of FORBIDDEN_RANGES)
      this.forbidden.addSubnet(address, prefix, family);
    for (const range of allowedRanges) {
      const [address, prefix] = range.split('/');
      this.allowed.addSubnet(address!, Number(prefix), isIP(address!) === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** Undefined when the address may be reached, else why not. */
  refusal(address: string): string | undefined {
    const mappedV4 = mappedIpv4(address);
    if (mappedV4) return this.refusal(mappedV4);
    if (this.isAllowListed(address)) return undefined;
    if (this.forbidden.check(address, familyOf(address))) return `${address} is not a public unicast address`;
    return undefined;
  }

  /** Whether the allow-list (loopback in local mode and tests) names this address. */
  isAllowListed(address: string): boolean {
    const mappedV4 = mappedIpv4(address);
    if (mappedV4) return this.isAllowListed(mappedV4);
    return this.allowed.check(address, familyOf(address));
  }

  /**
   * A DNS lookup for Node's HTTP client that refuses the connection if any resolved address is
   * forbidden. It runs at connect time, on the addresses the socket will actually use, so a name
   * that resolves differently later (DNS rebinding) is caught too.
   */
  readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.map((entry) => this.refusal(entry.address)).find(Boolean);
      // The reason reaches the endpoint's owner: it must not map our internal DNS for them.
      if (refused)
        return callback(new TargetRefusedError(`${hostname} resolves to a non-public address`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

  /**
   * The check a URL passes before it is used: scheme, literal address and DNS. Webhooks may use
   * plain http anywhere; `plainHttp: 'allow-listed only'` (connectors, which carry PHI and
   * credentials) accepts http only for targets on the allow-list, so production needs https.
   */
  async verify(
    url: string,
    options: { plainHttp: 'anywhere' | 'allow-listed only' } = { plainHttp: 'anywhere' },
  ): Promise<{ allowed: true } | { allowed: false; reason: string }> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return { allowed: false, reason: 'the URL must use http or https' };
    }
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const resolved = isIP(host) ? { addresses: [host] } : await this.resolve(host);
    if ('reason' in resolved) return { allowed: false, reason: resolved.reason };
    const refused = resolved.addresses.map((address) => this.refusal(address)).find(Boolean);
    if (refused)
      return { allowed: false, reason: isIP(host) ? refused : `${host} resolves to a non-public address` };
    if (
      parsed.protocol === 'http:' &&
      options.plainHttp === 'allow-listed only' &&
      !resolved.addresses.every((address) => this.isAllowListed(address))
    ) {
      return { allowed: false, reason: 'the URL must use https' };
    }
    return { allowed: true };
  }

  private resolve(host: string): Promise<{ addresses: string[] } | { reason: string }> {
    return new Promise((resolve) => {
      dnsLookup(host, { all: true }, (error, addresses) => {
        if (error) resolve({ reason: `${host} does not resolve (${error.code ?? error.message})` });
        else resolve({ addresses: addresses.map((entry) => entry.address) });
      });
    });
  }
}

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

function mappedIpv4(address: string): string | undefined {
  return isIP(address) === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
}
