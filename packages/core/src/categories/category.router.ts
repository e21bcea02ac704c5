import { termRouters } from "../terms/term.router.ts";
import { categoryResource } from "./category.present.ts";
import { categorySchemas } from "./category.schemas.ts";

const { main, aliases } = termRouters({ resource: categoryResource, key: "categories", schemas: categorySchemas });

/** `/categories` and `/categories/{id}`. */
export const categoriesRouter = main;
/** The PUT and PATCH forms of `categories.update` (REST only). */
export const categoriesRestAliases = aliases;
