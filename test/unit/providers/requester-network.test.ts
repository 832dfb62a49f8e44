import { networkOf } from '../../../domain/providers/requester-network';

describe('the network a client address stands for', () => {
  it('is an IPv4 address itself, also when a dual-stack socket writes it as IPv6', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(networkOf('203.0.113.8')).not.toBe(networkOf('203.0.113.7'));
  });

  it('is the /64 of an IPv6 address, however the address is written', () => {
    expect(networkOf('2001:db8:85a3:12::8a2e:370:7334')).toBe('2001:db8:85a3:12::/64');
    expect(networkOf('2001:0DB8:85A3:0012:0000:0000:0000:0001')).toBe('2001:db8:85a3:12::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('2001:db8:85a3:13::1')).not.toBe(networkOf('2001:db8:85a3:12::1'));
  });

  it('is none for what is not an address', () => {
    for (const text of [
      'unknown',
      '',
      '256.0.0.1',
      '1.2.3',
      '2001:db8::1::2',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8:9',
      'g::1',
      '::ffff:1.2.3.999',
    ])
      expect(networkOf(text)).toBeUndefined();
  });
});
