/**
 * Which addresses a URL upload may reach: public unicast only. Loopback, private (RFC 1918),
 * carrier-grade NAT, link-local (cloud metadata at 169.254.169.254), unique-local, multicast,
 * documentation and reserved ranges are refused, in IPv4 and IPv6; node's BlockList also matches
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) against the IPv4 ranges. The DNS lookup of every connection
 * (redirects included) goes through {@link guardedLookup}, which checks every address a name
 * resolves to and connects to a checked one, so a name cannot resolve to a public address for the
 * check and a private one for the connection.
 */
import { lookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

const IPV4_RANGES: Array<[string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
// `::/96` holds `::`, `::1` and the IPv4-compatible forms; 64:ff9b::/96 (NAT64), 2002::/16 (6to4)
// and 2001::/32 (Teredo) embed an IPv4 address that could be a private one.
const IPV6_RANGES: Array<[string, number]> = [
  ["::", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of IPV4_RANGES) NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of IPV6_RANGES) NOT_PUBLIC.addSubnet(network, prefix, "ipv6");

/** Whether `address` (an IP literal, IPv6 with or without brackets) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(bare);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/** The error a refused lookup fails the request with. */
export class PrivateAddressError extends Error {
  override readonly name = "PrivateAddressError";
  readonly code = "ERR_PRIVATE_ADDRESS";
}

/** A `lookup` for node:http that refuses a name when any of its addresses is not public. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (error, addresses) => {
      const found = addresses as LookupAddress[] | undefined;
      if (error || !found || found.length === 0)
        return callback(error ?? new Error(`no address for ${hostname}`), "", 4);
      if (!allowPrivate && found.some((entry) => !isPublicAddress(entry.address)))
        return callback(new PrivateAddressError(hostname), "", 4);
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, found);
      return callback(null, found[0]!.address, found[0]!.family);
    });
  };
}
