import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where a webhook may not go (decisions.md section 5): anything that is not the public internet.
 * A merchant chooses the URL, so without this the core could be made to call its own admin API,
 * the database's host, or a cloud metadata service.
 */
const BLOCKED_SUBNETS: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, includes the 169.254.169.254 metadata service
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, includes broadcast 255.255.255.255
  ['::', 96, 'ipv6'], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b::', 96, 'ipv6'], // NAT64, which reaches IPv4 addresses
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard-only
  ['2001::', 23, 'ipv6'], // IETF protocol assignments, includes Teredo
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4, which embeds an IPv4 address
  ['fc00::', 7, 'ipv6'], // unique local, includes the fd00:ec2::254 metadata service
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const BLOCKED = new BlockList();
for (const [network, prefix, family] of BLOCKED_SUBNETS) BLOCKED.addSubnet(network, prefix, family);

/**
 * IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is refused whatever the IPv4 part: it is an IPv4 address in
 * disguise. A list of its own, consulted for IPv6 only, because BlockList also matches IPv6 rules
 * against the mapped form of every IPv4 address checked.
 */
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/** The delivery was refused before any connection was made. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_BLOCKED';

  constructor(readonly address: string) {
    super(
      `address ${address} is not allowed for webhooks (loopback, private, link-local or reserved)`,
    );
    this.name = 'BlockedAddressError';
  }
}

/** True for an address a webhook must not reach. Anything that is not an IP literal counts as blocked. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) return IPV4_MAPPED.check(address, 'ipv6') || BLOCKED.check(address, 'ipv6');
  return BLOCKED.check(address, 'ipv4');
}

/** `URL.hostname` wraps IPv6 literals in brackets; sockets and isIP want them bare. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The check for a URL whose host is an IP literal. Node connects to a literal without calling
 * `lookup`, so it must be checked here; the WHATWG parser has already turned odd forms such as
 * `2130706433`, `0x7f.1` or `017700000001` into dotted quads.
 */
export function assertLiteralHostAllowed(url: URL): void {
  const host = bareHostname(url);
  if (isIP(host) !== 0 && isBlockedAddress(host)) throw new BlockedAddressError(host);
}

type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for http(s) agents: resolves the name and drops every blocked address, so the check
 * happens on the address actually connected to. A name that re-resolves to 127.0.0.1 between a
 * check and the connection (DNS rebinding) cannot slip through, because there is no earlier check.
 */
export function guardedLookup(
  resolve: Resolver = dnsLookup as unknown as Resolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '', undefined);
      const allowed = addresses.filter((entry) => !isBlockedAddress(entry.address));
      if (allowed.length === 0) {
        return callback(
          new BlockedAddressError(addresses.map((entry) => entry.address).join(', ') || hostname),
          options.all ? [] : '',
          undefined,
        );
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  };
}
