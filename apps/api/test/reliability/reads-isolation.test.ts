import { advanceChangeVersion, type RouterOutputs } from "@calendar/core";
import { eventRow, PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";

type ChangeList = RouterOutputs["changes"]["list"];

/** Thrown to roll the held transaction back. */
class Rollback extends Error {}

describe.each(PROVIDERS)("reads while a write transaction is open (%s)", (provider) => {
  const server = useTestServer(provider, { cacheBytes: 4 * 1024 * 1024 });

  it("never see its uncommitted rows, over REST, tRPC, feeds, pages and the change feed, before and after its rollback", async () => {
    const start = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const { body: event } = await server.call("POST /events", {
      as: server.users.editor,
      body: {
        title: "Committed title",
        start_date: `${start} 10:00:00`,
        end_date: `${start} 11:00:00`,
        venue: { venue: "Committed venue" },
        organizer: { organizer: "Committed organizer" },
        categories: ["Committed category"],
      },
      status: 201,
    });
    const { id: venueId } = await server.db.venue.findFirstOrThrow({ where: { name: "Committed venue" } });
    const { body: token } = await server.rest<ChangeList>("GET", `${API}/changes`);
    const anonymous = server.client();
    const editor = server.client(server.users.editor);
    /** Every read path over the same records, as text. */
    const readAll = async () => {
      const texts: string[] = [];
      for (const as of [undefined, server.users.editor]) {
        for (const path of [
          `${API}/events/${event.id}`,
          `${API}/events/by-slug/${event.slug}`,
          `${API}/events`,
          `${API}/events?include=${event.id}`,
          `${API}/events.ics`,
          `${API}/events/${event.id}.ics`,
          `${API}/changes?since=${encodeURIComponent(token.next_token)}`,
          `${API}/venues`,
          `${API}/venues/${venueId}`,
          `${API}/organizers`,
          `${API}/categories`,
        ]) {
          const answer = await server.rest("GET", path, as ? { as } : {});
          expect(answer.status, path).toBe(200);
          texts.push(answer.text);
          const total = answer.headers.get("x-wp-total");
          if (total !== null) texts.push(`${path} lists ${total}`);
        }
      }
      const page = await fetch(`${server.origin}/event/${event.slug}/`);
      texts.push(await page.text());
      for (const client of [anonymous, editor]) {
        texts.push(JSON.stringify(await client.events.get.query({ id: event.id })));
        texts.push(JSON.stringify(await client.events.list.query({})));
      }
      return texts;
    };
    const before = await readAll();
    expect(before.join("\n")).toContain("Committed title");

    let during: string[] = [];
    const held = server.db.$transaction(
      async (tx) => {
        await tx.event.update({ where: { id: event.id }, data: { title: "Uncommitted title" } });
        await tx.venue.update({ where: { id: venueId }, data: { name: "Uncommitted venue" } });
        await tx.organizer.updateMany({ data: { name: "Uncommitted organizer" } });
        await tx.category.updateMany({ data: { name: "Uncommitted category" } });
        await tx.event.create({
          data: eventRow({
            title: "Uncommitted event",
            startLocal: `${start} 12:00:00`,
            endLocal: `${start} 13:00:00`,
            startUtc: new Date(`${start}T12:00:00Z`),
            endUtc: new Date(`${start}T13:00:00Z`),
          }),
        });
        const version = await advanceChangeVersion(tx);
        await tx.change.create({
          data: {
            version,
            type: "event",
            recordId: event.id,
            action: "updated",
            language: "en",
            status: "publish",
            protected: false,
            authorId: null,
            modifiedUtc: new Date(),
          },
        });
        during = await readAll();
        throw new Rollback();
      },
      { timeout: 60_000 },
    );
    await expect(held).rejects.toBeInstanceOf(Rollback);

    const totals = (texts: string[]) => texts.filter((text) => text.includes(" lists "));
    expect(totals(before)).toEqual(totals(before).map((text) => text.replace(/ lists \d+$/, " lists 1")));
    for (const texts of [during, await readAll()]) {
      expect(texts.filter((text) => text.includes("Uncommitted"))).toEqual([]);
      expect(totals(texts)).toEqual(totals(before));
      expect(texts.join("\n")).toContain("Committed title");
    }
  }, 120_000);
});
