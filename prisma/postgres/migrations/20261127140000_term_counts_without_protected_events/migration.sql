-- Term counts leave out password-protected events (their terms are details the password hides): count anew.
UPDATE "Category" SET "eventCount" = (
  SELECT COUNT(*) FROM "EventCategory" JOIN "Event" ON "Event"."id" = "EventCategory"."eventId"
  WHERE "EventCategory"."categoryId" = "Category"."id" AND "Event"."status" = 'publish'
    AND "Event"."password" = '' AND "Event"."language" = "Category"."language"
);
UPDATE "Tag" SET "eventCount" = (
  SELECT COUNT(*) FROM "EventTag" JOIN "Event" ON "Event"."id" = "EventTag"."eventId"
  WHERE "EventTag"."tagId" = "Tag"."id" AND "Event"."status" = 'publish'
    AND "Event"."password" = '' AND "Event"."language" = "Tag"."language"
);
-- Answers tagged by the change version must not be revalidated with the counts of before.
UPDATE "ChangeVersion" SET "version" = "version" + 1;
