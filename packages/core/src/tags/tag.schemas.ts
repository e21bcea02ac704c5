import { z } from "zod";
import {
  TAXONOMY_NAMES,
  termCreateBody,
  termListQuery,
  termOutput,
  termSchemaSet,
  termUpdateBody,
} from "../terms/term.schemas.ts";

/** Event tags (taxonomy `post_tag`): terms without a parent. */

export const tagOutput = termOutput
  .omit({ parent: true })
  .extend({ taxonomy: z.literal(TAXONOMY_NAMES.tag) })
  .meta({ id: "Tag" });
export type Tag = z.infer<typeof tagOutput>;

export const tagSchemas = termSchemaSet("tags", {
  listQuery: termListQuery.omit({ parent: true }),
  createBody: termCreateBody.omit({ parent: true }),
  updateBody: termUpdateBody.omit({ parent: true }),
  item: tagOutput,
});
export type TagList = z.infer<typeof tagSchemas.list>;
