import { describe, expect, it } from "vitest";
import { eventListMovesWithClock } from "./event.clock.ts";
import { eventListQuery } from "./event.schemas.ts";

const movesWithClock = (query: object) => eventListMovesWithClock(eventListQuery.parse(query));

describe("eventListMovesWithClock", () => {
  it.each<object>([
    {},
    { start_date: "2030-01-01" },
    { end_date: "2030-12-31" },
    { start_date: "now", end_date: "2030-12-31" },
    { start_date: "2030-01-01", end_date: "+1 week" },
    { start_date: "2030-01-01", end_date: "2030-12-31", starts_after: "now" },
    { starts_before: "tomorrow" },
    { ends_after: "tomorrow 9am" },
    { ends_before: "next wednesday 4pm", starts_after: "2030-01-01" },
    { start_date: "March 4 2030", end_date: "2030-12-31" },
  ])("moves with the clock for %o (a default bound or a value read from now)", (query) => {
    expect(movesWithClock(query)).toBe(true);
  });

  it.each<object>([
    { start_date: "2030-01-01", end_date: "2030-12-31" },
    { start_date: "1893456000", end_date: "2030-12-31T23:00:00+01:00" },
    { start_date: "03/04/2030", end_date: "20301231" },
    { starts_after: "2030-01-01" },
    { starts_after: "2030-01-01", ends_before: "2031-01-01 10:00:00" },
    { include: "1,2" },
    { include: "3", start_date: "now" },
  ])("does not for %o (absolute dates, or include, which drops every date filter)", (query) => {
    expect(movesWithClock(query)).toBe(false);
  });
});
