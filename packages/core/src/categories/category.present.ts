import type { LinkBase } from "../shared/links.ts";
import { presentTerm, type TermFacts } from "../terms/term.present.ts";
import type { TermResource } from "../terms/term.service.ts";
import type { TermRow } from "../terms/term.store.ts";
import type { Category } from "./category.schemas.ts";

export function presentCategory(row: TermRow, facts: TermFacts, links: LinkBase): Category {
  return presentTerm("category", row, facts, links);
}

export const categoryResource: TermResource<Category> = {
  taxonomy: "category",
  noun: "category",
  present: presentCategory,
};
