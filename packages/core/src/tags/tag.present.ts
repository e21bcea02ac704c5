import type { LinkBase } from "../shared/links.ts";
import { presentTerm, type TermFacts } from "../terms/term.present.ts";
import type { TermResource } from "../terms/term.service.ts";
import type { TermRow } from "../terms/term.store.ts";
import type { Tag } from "./tag.schemas.ts";

/** A tag: the term shape without `parent` (tags are flat). */
export function presentTag(row: TermRow, facts: TermFacts, links: LinkBase): Tag {
  const { parent: _flat, ...tag } = presentTerm("tag", row, facts, links);
  return tag;
}

export const tagResource: TermResource<Tag> = { taxonomy: "tag", noun: "tag", present: presentTag };
