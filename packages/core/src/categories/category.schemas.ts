import { z } from "zod";
import {
  TAXONOMY_NAMES,
  termCreateBody,
  termListQuery,
  termOutput,
  termSchemaSet,
  termUpdateBody,
} from "../terms/term.schemas.ts";

/** Event categories (taxonomy `tribe_events_cat`): terms with a parent. */

export const categoryOutput = termOutput
  .extend({ taxonomy: z.literal(TAXONOMY_NAMES.category) })
  .meta({ id: "Category" });
export type Category = z.infer<typeof categoryOutput>;

export const categorySchemas = termSchemaSet("categories", {
  listQuery: termListQuery,
  createBody: termCreateBody,
  updateBody: termUpdateBody,
  item: categoryOutput,
});
export type CategoryList = z.infer<typeof categorySchemas.list>;
