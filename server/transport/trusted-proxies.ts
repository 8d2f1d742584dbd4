import { BlockList, isIP } from 'node:net';

// Who the client is when the server sits behind a load balancer: the socket's
// peer is then the balancer, and the client is named in X-Forwarded-For, which
// only the configured proxies are believed about.

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what a dual-stack socket reports) as plain IPv4. */
export function unmapped(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : address;
}

/** `10.0.0.7`, `10.0.0.0/8`, `fd00::/8`: what `trustedProxies` accepts. */
export function parseProxyEntry(
  entry: string,
): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
  return prefix >= 0 && prefix <= (version === 4 ? 32 : 128) ? { address, prefix, family } : null;
}

/** One X-Forwarded-For hop without brackets or port (`[::1]:80` → `::1`, `10.0.0.1:5000` → `10.0.0.1`). */
function hopAddress(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed?.[1]) return unmapped(bracketed[1]);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return unmapped(withPort?.[1] ?? hop);
}

/**
 * The load balancers and reverse proxies in front of the server (config
 * `trustedProxies`). Only when the socket's peer is one of them is
 * X-Forwarded-For read, and then from the right: each trusted hop appended the
 * address it saw, so the right-most hop that is not a trusted proxy is the
 * client; anything left of it is whatever the client wrote and is ignored.
 */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const parsed = parseProxyEntry(entry);
      if (!parsed) throw new Error(`Not an IP address or CIDR range: ${entry}`);
      if (parsed.prefix === undefined) this.#list.addAddress(parsed.address, parsed.family);
      else this.#list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    this.size = entries.length;
  }

  trusts(address: string): boolean {
    const bare = unmapped(address);
    const version = isIP(bare);
    return version !== 0 && this.#list.check(bare, version === 4 ? 'ipv4' : 'ipv6');
  }

  /** Whom failed keys are counted against, and whom /metrics' loopback rule looks at. */
  clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    const socketAddress = peer ? unmapped(peer) : 'unknown';
    if (this.size === 0 || !this.trusts(socketAddress) || forwardedFor === undefined) return socketAddress;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((hop) => hopAddress(hop.trim()))
      .filter(Boolean);
    for (let index = hops.length - 1; index >= 0; index--) {
      const hop = hops[index]!;
      // A hop that is no address was still written by a trusted proxy: it names the client.
      if (!this.trusts(hop)) return hop.slice(0, 100);
    }
    // Every hop is a proxy of ours: the left-most is as close to the client as it gets.
    return hops[0]?.slice(0, 100) ?? socketAddress;
  }
}
