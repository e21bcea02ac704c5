import { describe, expect, it } from "vitest";
import { loadEventRow } from "../events/event.load.ts";
import { withImage } from "../shared/images.ts";
import { termStore } from "../terms/term.store.ts";
import { create, eventRecord, organizerRecord, PROVIDERS, termRecord, useTestDatabase, venueRecord } from "./index.ts";

/** The in-memory records stand for what the reads return: they would drift if the schema's defaults changed. */
describe.each(PROVIDERS)("the factories' in-memory records (%s)", (provider) => {
  const database = useTestDatabase(provider);

  it("are an event row as loadEventRow reads it back", async () => {
    const { db } = database.current.handle;
    const { id } = await create.event(db);
    expect(await loadEventRow(db, { id })).toEqual(eventRecord({ id }));
  });

  it("are a venue row as the venue store reads it back", async () => {
    const { db } = database.current.handle;
    const { id } = await create.venue(db);
    expect(await withImage(db, await db.venue.findUniqueOrThrow({ where: { id } }))).toEqual(venueRecord({ id }));
  });

  it("are an organizer row as the organizer store reads it back", async () => {
    const { db } = database.current.handle;
    const { id } = await create.organizer(db);
    expect(await withImage(db, await db.organizer.findUniqueOrThrow({ where: { id } }))).toEqual(
      organizerRecord({ id }),
    );
  });

  it("are a category or tag row as the term store reads it back", async () => {
    const { db } = database.current.handle;
    const category = await create.category(db);
    expect(await termStore(db, "category").find({ id: category.id })).toEqual([termRecord({ id: category.id })]);
    const tag = await create.tag(db);
    expect(await termStore(db, "tag").find({ id: tag.id })).toEqual([termRecord({ id: tag.id })]);
  });
});
