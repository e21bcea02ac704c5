import { termRouters } from "../terms/term.router.ts";
import { tagResource } from "./tag.present.ts";
import { tagSchemas } from "./tag.schemas.ts";

const { main, aliases } = termRouters({ resource: tagResource, key: "tags", schemas: tagSchemas });

/** `/tags` and `/tags/{id}`. */
export const tagsRouter = main;
/** The PUT and PATCH forms of `tags.update` (REST only). */
export const tagsRestAliases = aliases;
