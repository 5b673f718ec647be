import { describe, expect, it } from "vitest"
import { makeAddressPolicy, parseCidr } from "../../../src/services/image-intake/AddressPolicy.js"

const closed = makeAddressPolicy({ allowPrivate: false, allowedCidrs: [] })

describe("AddressPolicy", () => {
  it("refuses loopback, private, link-local, metadata, multicast and reserved addresses by default", () => {
    const refused = [
      "0.0.0.0",
      "10.1.2.3",
      "100.64.0.1",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.168.1.1",
      "198.18.0.1",
      "198.19.255.255",
      "224.0.0.1",
      "240.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      // The same private targets written as IPv6: mapped, and NAT64.
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "64:ff9b::169.254.169.254"
    ]
    for (const address of refused) expect(closed.addressRefusal(address), address).toBeDefined()
  })

  it("lets public addresses through", () => {
    const allowed = [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "198.20.0.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808"
    ]
    for (const address of allowed) expect(closed.addressRefusal(address), address).toBeUndefined()
  })

  it("names the rule in its refusal", () => {
    expect(closed.addressRefusal("127.0.0.1")).toBe(
      "private, loopback and link-local addresses are not allowed (127.0.0.1)"
    )
    expect(closed.addressRefusal("169.254.169.254")).toBe("cloud metadata addresses are not allowed (169.254.169.254)")
    expect(closed.hostRefusal("metadata.google.internal.")).toMatch(/cloud metadata hosts/)
    expect(closed.hostRefusal("images.example.com")).toBeUndefined()
  })

  it("refuses the localhost domain by name (RFC 6761), with or without the root dot, unless loopback is open", () => {
    for (const host of ["localhost", "localhost.", "LOCALHOST.", "a.localhost", "a.b.localhost."]) {
      expect(closed.hostRefusal(host), host).toBe(
        `private, loopback and link-local addresses are not allowed (${host} is loopback)`
      )
    }
    expect(closed.hostRefusal("localhost.example.com")).toBeUndefined()
    expect(closed.hostRefusal("notlocalhost")).toBeUndefined()
    expect(makeAddressPolicy({ allowPrivate: true, allowedCidrs: [] }).hostRefusal("localhost.")).toBeUndefined()
    expect(
      makeAddressPolicy({ allowPrivate: false, allowedCidrs: ["127.0.0.0/8"] }).hostRefusal("localhost.")
    ).toBeUndefined()
  })

  it("allowPrivate opens private ranges but not cloud metadata", () => {
    const open = makeAddressPolicy({ allowPrivate: true, allowedCidrs: [] })
    expect(open.addressRefusal("127.0.0.1")).toBeUndefined()
    expect(open.addressRefusal("10.0.0.1")).toBeUndefined()
    expect(open.addressRefusal("169.254.169.254")).toBeDefined()
    expect(open.addressRefusal("fd00:ec2::254")).toBeDefined()
  })

  it("allowedCidrs opens exactly the ranges named", () => {
    const loopbackOnly = makeAddressPolicy({ allowPrivate: false, allowedCidrs: ["127.0.0.0/8", "169.254.169.254"] })
    expect(loopbackOnly.addressRefusal("127.0.0.1")).toBeUndefined()
    expect(loopbackOnly.addressRefusal("::ffff:127.0.0.1")).toBeUndefined()
    expect(loopbackOnly.addressRefusal("169.254.169.254")).toBeUndefined()
    expect(loopbackOnly.addressRefusal("10.0.0.1")).toBeDefined()
    expect(loopbackOnly.addressRefusal("::1")).toBeDefined()
  })

  it("parses CIDRs strictly", () => {
    expect(parseCidr("10.0.0.0/8")).toEqual({ address: "10.0.0.0", prefix: 8, family: "ipv4" })
    expect(parseCidr(" fd00::/8 ")).toEqual({ address: "fd00::", prefix: 8, family: "ipv6" })
    expect(parseCidr("10.0.0.1")).toEqual({ address: "10.0.0.1", prefix: 32, family: "ipv4" })
    for (const bad of ["10.0.0.0/33", "10.0.0/8", "example.com/8", "10.0.0.0/8/1", "10.0.0.0/x", ""]) {
      expect(parseCidr(bad), bad).toBeUndefined()
    }
    expect(() => makeAddressPolicy({ allowPrivate: false, allowedCidrs: ["nope"] })).toThrow(/not a CIDR/)
  })
})
