import { describe, expect, it } from "vitest";
import { clientAddressKey } from "./client-address.ts";

describe("clientAddressKey", () => {
  it("keys every address of one /64 alike, however it is written", () => {
    const keys = [
      "2001:db8:0:1::1",
      "2001:db8:0:1:ffff:ffff:ffff:ffff",
      "2001:0DB8:0000:0001:1234:5678:9abc:def0",
      "2001:db8:0:1::1%eth0",
      "2001:db8:0:1:0:0:1.2.3.4",
    ].map((address) => clientAddressKey(address));
    expect(new Set(keys)).toEqual(new Set(["2001:db8:0:1:0:0:0:0/64"]));
  });

  it("tells two /64s apart, and follows the prefix it is given", () => {
    expect(clientAddressKey("2001:db8:0:2::1")).toBe("2001:db8:0:2:0:0:0:0/64");
    expect(clientAddressKey("2001:db8:0:1ff::1", 56)).toBe("2001:db8:0:100:0:0:0:0/56");
    expect(clientAddressKey("2001:db8::7", 128)).toBe("2001:db8:0:0:0:0:0:7/128");
    expect(clientAddressKey("::", 64)).toBe("0:0:0:0:0:0:0:0/64");
    expect(clientAddressKey("fe80::1", 10)).toBe("fe80:0:0:0:0:0:0:0/10");
  });

  it("keeps IPv4 addresses, also IPv4-mapped ones, and anything else as they are", () => {
    expect(clientAddressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientAddressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientAddressKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(clientAddressKey("not an address")).toBe("not an address");
  });
});
