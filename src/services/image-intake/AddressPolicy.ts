import net from "node:net"

type Family = "ipv4" | "ipv6"
interface Cidr {
  readonly address: string
  readonly prefix: number
  readonly family: Family
}

/** "10.0.0.0/8" or "fc00::/7"; a bare address is a single host. Undefined when malformed. */
export const parseCidr = (text: string): Cidr | undefined => {
  const [address, prefixText, ...rest] = text.trim().split("/")
  const version = net.isIP(address)
  if (version === 0 || rest.length > 0) return undefined
  const family: Family = version === 4 ? "ipv4" : "ipv6"
  const max = version === 4 ? 32 : 128
  const prefix = prefixText === undefined ? max : Number(prefixText)
  return Number.isInteger(prefix) && prefix >= 0 && prefix <= max ? { address, prefix, family } : undefined
}

// Everything a server-side fetch must not reach: "this network", private, carrier-grade NAT,
// loopback, link-local, IETF protocol assignments, benchmarking, multicast and reserved.
const PRIVATE_V4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/3"
]
// ::/96 covers ::, ::1 and the deprecated IPv4-compatible form; ULA; link-local; multicast.
const PRIVATE_V6 = ["::/96", "fc00::/7", "fe80::/10", "ff00::/8"]
// Cloud instance metadata (AWS/GCP/Azure/OpenStack, ECS tasks, Alibaba, AWS over IPv6): they
// hand out credentials, so `allowPrivate` does not open them; only an explicit CIDR does.
const METADATA = ["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]
const METADATA_HOSTS = new Set(["metadata", "metadata.google.internal", "metadata.goog"])

const blockListOf = (cidrs: ReadonlyArray<string>) => {
  const list = new net.BlockList()
  for (const text of cidrs) {
    const cidr = parseCidr(text)
    if (cidr === undefined) throw new Error(`not a CIDR: ${text}`)
    list.addSubnet(cidr.address, cidr.prefix, cidr.family)
    // BlockList matches ::ffff:a.b.c.d against IPv4 rules by itself, but not NAT64
    // (64:ff9b::a.b.c.d), which a DNS64 resolver hands out for IPv4-only names.
    if (cidr.family === "ipv4") list.addSubnet(`64:ff9b::${cidr.address}`, 96 + cidr.prefix, "ipv6")
  }
  return list
}

export interface AddressPolicy {
  /** Why a URL host name is refused before any lookup, or undefined. */
  readonly hostRefusal: (hostname: string) => string | undefined
  /** Why connecting to this IP address is refused, or undefined when it is allowed. */
  readonly addressRefusal: (address: string) => string | undefined
}

export interface AddressPolicyOptions {
  /** Opens loopback, private and link-local ranges, but not cloud metadata. */
  readonly allowPrivate: boolean
  /** Opens these ranges whatever else says, e.g. "127.0.0.0/8" for a local image proxy. */
  readonly allowedCidrs: ReadonlyArray<string>
}

/** Throws on a malformed allowed CIDR (configuration validates them first). */
export const makeAddressPolicy = (options: AddressPolicyOptions): AddressPolicy => {
  const allowed = blockListOf(options.allowedCidrs)
  const metadata = blockListOf(METADATA)
  const blocked = blockListOf([...PRIVATE_V4, ...PRIVATE_V6])
  const addressRefusal = (address: string) => {
    const family: Family = net.isIPv4(address) ? "ipv4" : "ipv6"
    if (allowed.check(address, family)) return undefined
    if (metadata.check(address, family)) return `cloud metadata addresses are not allowed (${address})`
    if (options.allowPrivate || !blocked.check(address, family)) return undefined
    return `private, loopback and link-local addresses are not allowed (${address})`
  }
  return {
    hostRefusal: (hostname) => {
      const name = hostname.toLowerCase().replace(/\.$/, "")
      if (METADATA_HOSTS.has(name)) return `cloud metadata hosts are not allowed (${hostname})`
      // RFC 6761: "localhost" and every name under it are loopback, whatever a resolver says
      // (some answer nothing for "localhost." or "a.localhost"): refused without a lookup
      // unless loopback is open, when the addresses it resolves to are checked as usual.
      const loopback = name === "localhost" || name.endsWith(".localhost")
      if (loopback && addressRefusal("127.0.0.1") !== undefined && addressRefusal("::1") !== undefined) {
        return `private, loopback and link-local addresses are not allowed (${hostname} is loopback)`
      }
      return undefined
    },
    addressRefusal
  }
}
