/**
 * Whether an IP address is on the public internet, for requests the service makes to addresses that
 * someone else chose (a client's metadata document, a partner's webhook endpoint): such a request must never reach our own network,
 * the machine itself or a cloud metadata service. Anything not known to be public is refused.
 */
import net from 'node:net';

/** IPv4 ranges that are not globally reachable unicast (IANA special-purpose registry, RFC 6890). */
const SPECIAL_IPV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services among them
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112 direct delegation
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/**
 * Public IPv6 unicast is 2000::/3; everything outside it (loopback, unspecified, IPv4-mapped, NAT64,
 * unique-local, link-local, multicast) is not. Inside it, these are not public either.
 */
const SPECIAL_IPV6_IN_GLOBAL: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address of any kind
  ['3fff::', 20], // documentation
];

const notPublic = new net.BlockList();
for (const [prefix, bits] of SPECIAL_IPV4) notPublic.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of SPECIAL_IPV6_IN_GLOBAL) notPublic.addSubnet(prefix, bits, 'ipv6');

const globalIpv6 = new net.BlockList();
globalIpv6.addSubnet('2000::', 3, 'ipv6');

/** True only for a globally reachable unicast address; false for anything else, a non-address among them. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) return !notPublic.check(bare, 'ipv4');
  // A zone index (fe80::1%eth0) only ever qualifies a link-local address.
  if (!net.isIPv6(bare) || bare.includes('%')) return false;
  return globalIpv6.check(bare, 'ipv6') && !notPublic.check(bare, 'ipv6');
}

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True for a loopback address (127.0.0.0/8, ::1): the sandbox's own machine. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) return loopback.check(bare, 'ipv4');
  return net.isIPv6(bare) && loopback.check(bare, 'ipv6');
}
