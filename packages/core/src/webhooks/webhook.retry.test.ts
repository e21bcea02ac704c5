import { describe, expect, it } from "vitest";
import { retryDelay } from "./webhook.retry.ts";

describe("retryDelay", () => {
  it("retries first within the base delay, between half of it and all of it", () => {
    expect(retryDelay(1, 5_000, () => 0)).toBe(2_500);
    expect(retryDelay(1, 5_000, () => 1)).toBe(5_000);
  });

  it("doubles with every failure", () => {
    expect([1, 2, 3, 4].map((failures) => retryDelay(failures, 1_000, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it("waits an hour at most", () => {
    expect(retryDelay(40, 5_000, () => 1)).toBe(3_600_000);
  });
});
