/**
 * The network a client address belongs to, for counting: one person's devices, or one attacker's
 * machines, usually share an IPv4 /24 or an IPv6 /64 (a single IPv6 host is handed a whole /64, so
 * counting single IPv6 addresses counts nothing). IPv4 addresses written as IPv6 (`::ffff:203.0.113.7`)
 * count as IPv4.
 */
import net from 'node:net';

export function networkOf(address: string): string {
  const bare = withoutPort(address.trim());
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  const ip = mapped ?? bare;
  if (net.isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  if (net.isIPv6(ip)) return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
  // Not an address (a test double, a socket without one): counted as itself.
  return address;
}

/** Some proxies write the client's port too: `203.0.113.7:51234`, `[2001:db8::1]:443`. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address)?.[1];
  if (bracketed) return bracketed;
  return /^\d+\.\d+\.\d+\.\d+:\d+$/.test(address) ? (address.split(':')[0] as string) : address;
}

/** The eight 16-bit groups of an IPv6 address, expanded (`2001:db8::1` → 2001, db8, 0, ..., 1). */
function ipv6Groups(address: string): string[] {
  const withoutZone = address.split('%')[0] as string;
  const [head = '', tail] = withoutZone.split('::');
  const parse = (part: string) => part.split(':').filter(Boolean).flatMap(groupsOf);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const zeros = Array.from({ length: 8 - front.length - back.length }, () => '0');
  return [...front, ...zeros, ...back];
}

/** A group, or the two groups of an IPv4 address written at the end (`::ffff:c000:0201` style). */
function groupsOf(part: string): string[] {
  if (!part.includes('.')) return [Number.parseInt(part, 16).toString(16)];
  const [a, b, c, d] = part.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
