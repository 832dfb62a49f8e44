/**
 * The network a client address stands for, to tell whether a prescriber signed from where the
 * account's own requests came from (docs/providers.md, "Signed from the requester's network"): an
 * IPv4 address itself, since a site's machines share one public address behind its NAT, and an IPv6
 * address's /64, the one subnet of a site, whose hosts differ only in the low 64 bits. An IPv4
 * address written as IPv6 (`::ffff:203.0.113.7`, as a dual-stack socket reports it) is that IPv4
 * address. Undefined for anything that is not an address (`unknown`).
 */
export function networkOf(address: string): string | undefined {
  const v4 = ipv4(address);
  if (v4) return v4;
  const groups = ipv6Groups(address.replace(/%.*$/, ''));
  if (!groups) return undefined;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

function ipv4(text: string): string | undefined {
  const octets = IPV4.exec(text)?.slice(1).map(Number);
  return octets && octets.every((octet) => octet <= 255) ? octets.join('.') : undefined;
}

/** The eight 16-bit groups of an IPv6 address in any of its written forms. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const [head, tail] = halves.map((half) => (half === '' ? [] : half.split(':')));
  const last = tail ?? head!;
  // A dotted IPv4 ending (`::ffff:192.0.2.1`) stands for the last two groups.
  const dotted = last.length > 0 && last[last.length - 1]!.includes('.') ? ipv4(last.pop()!) : '';
  if (dotted === undefined) return undefined;
  if (dotted) {
    const [a, b, c, d] = dotted.split('.').map(Number);
    last.push(((a! << 8) | b!).toString(16), ((c! << 8) | d!).toString(16));
  }
  const written = [...head!, ...(tail ?? [])];
  if (!written.every((group) => HEXTET.test(group))) return undefined;
  const left = 8 - written.length;
  if (tail === undefined ? left !== 0 : left < 1) return undefined;
  const groups = tail === undefined ? head! : [...head!, ...Array<string>(left).fill('0'), ...tail];
  return groups.map((group) => parseInt(group, 16));
}
