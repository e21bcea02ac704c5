import type { z } from "zod";
import { type Context, scopeOf, setListHeaders, setRestStatus } from "../trpc/context.ts";
import { publicProcedure, router } from "../trpc/init.ts";
import { COLLECTION_PATHS } from "./term.present.ts";
import {
  keyed,
  type TermCreateBody,
  type TermItemQuery,
  type TermListQuery,
  type TermUpdateBody,
  termItemQuery,
} from "./term.schemas.ts";
import {
  createTerm,
  deleteTerm,
  getTerm,
  listTerms,
  type TermPage,
  type TermResource,
  updateTerm,
} from "./term.service.ts";

/** A list response: the terms under their collection's key, then the page fields. */
export type TermList<K extends string, TTerm> = Record<K, TTerm[]> & Omit<TermPage<TTerm>, "items">;

/**
 * The schemas of one kind of term; categories and tags differ only in `parent` and their names. Each input schema
 * is a type parameter of its own, so that tRPC clients see its exact input type. Outputs are typed by what they
 * produce only: tRPC cannot check a generic resolver result against a generic schema input, and it validates
 * every output at run time anyway.
 */
export interface TermSchemas<
  K extends string,
  TTerm,
  L extends z.ZodType<TermListQuery>,
  C extends z.ZodType<TermCreateBody>,
  U extends z.ZodType<TermUpdateBody>,
> {
  listQuery: L;
  createBody: C;
  updateBody: U;
  item: z.ZodType<TTerm, unknown>;
  list: z.ZodType<TermList<K, TTerm>, unknown>;
}

export interface TermRouterSpec<
  K extends string,
  TTerm,
  L extends z.ZodType<TermListQuery>,
  C extends z.ZodType<TermCreateBody>,
  U extends z.ZodType<TermUpdateBody>,
> {
  resource: TermResource<TTerm>;
  /** The collection's key in list responses and its OpenAPI tag: `categories` or `tags`. */
  key: K;
  schemas: TermSchemas<K, TTerm, L, C, U>;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const NOT_ALLOWED = "Not signed in (401) or without the manage_categories capability (403).";
const READ_ERRORS: Record<number, string> = { 400: "Invalid parameter." };
const WRITE_ERRORS: Record<number, string> = {
  400: "Invalid or missing parameter, or a duplicate name.",
  401: NOT_ALLOWED,
  403: NOT_ALLOWED,
};

/**
 * The procedures of categories or tags: `list`, `create`, `get`, `update`, `delete`, and the PUT/PATCH aliases of
 * `update` for the REST surface (trpc-to-openapi serves one method per procedure).
 */
export function termRouters<
  K extends string,
  TTerm,
  L extends z.ZodType<TermListQuery>,
  C extends z.ZodType<TermCreateBody>,
  U extends z.ZodType<TermUpdateBody>,
>(spec: TermRouterSpec<K, TTerm, L, C, U>) {
  const { resource, key, schemas } = spec;
  const collection = COLLECTION_PATHS[resource.taxonomy];
  const item: `/${string}` = `${collection}/{id}`;
  const meta = (method: Method, path: `/${string}`, summary: string, description: string, writes = false) => ({
    openapi: {
      method,
      path,
      tags: [key],
      summary,
      description,
      protect: writes,
      errorResponses: writes ? WRITE_ERRORS : READ_ERRORS,
    },
  });

  const update = publicProcedure.input(schemas.updateBody).output(schemas.item);
  const updateResolver = ({ ctx, input }: { ctx: Context; input: TermUpdateBody }) =>
    updateTerm(scopeOf(ctx, input.ml_language), resource, input);
  const updateDescription = `Changes the fields sent (partial update). Also served on PUT and PATCH.`;

  const main = router({
    list: publicProcedure
      .meta(
        meta(
          "GET",
          collection,
          `List ${key}`,
          `The ${key} of the request's language, name ascending by default; terms without a published event are hidden unless hide_empty=false.`,
        ),
      )
      .input(schemas.listQuery)
      .output(schemas.list)
      .query(async ({ ctx, input }) => {
        const { items, ...page } = await listTerms(scopeOf(ctx, input.ml_language), resource, input);
        setListHeaders(ctx, page);
        const { total, total_pages, rest_url, ...pageLinks } = page;
        // In the order of the output schema (reference 3.8), as sent.
        return { ...keyed(key, items), rest_url, total, total_pages, ...pageLinks };
      }),
    create: publicProcedure
      .meta(
        meta(
          "POST",
          collection,
          `Create a ${resource.noun}`,
          `Creates a ${resource.noun} in the request's language.`,
          true,
        ),
      )
      .input(schemas.createBody)
      .output(schemas.item)
      .mutation(async ({ ctx, input }) => {
        const term = await createTerm(scopeOf(ctx, input.ml_language), resource, input);
        setRestStatus(ctx, 201);
        return term;
      }),
    get: publicProcedure
      .meta(meta("GET", item, `Get a ${resource.noun}`, `A ${resource.noun} by id, in any language.`))
      .input(termItemQuery)
      .output(schemas.item)
      .query(({ ctx, input }: { ctx: Context; input: TermItemQuery }) =>
        getTerm(scopeOf(ctx, input.ml_language), resource, input.id),
      ),
    update: update
      .meta(meta("POST", item, `Update a ${resource.noun}`, updateDescription, true))
      .mutation(updateResolver),
    delete: publicProcedure
      .meta(
        meta(
          "DELETE",
          item,
          `Delete a ${resource.noun}`,
          `Deletes the ${resource.noun} permanently and answers it as it was; its events lose it.`,
          true,
        ),
      )
      .input(termItemQuery)
      .output(schemas.item)
      .mutation(({ ctx, input }) => deleteTerm(scopeOf(ctx, input.ml_language), resource, input.id)),
  });

  const aliases = router({
    updatePut: update
      .meta(meta("PUT", item, `Update a ${resource.noun}`, updateDescription, true))
      .mutation(updateResolver),
    updatePatch: update
      .meta(meta("PATCH", item, `Update a ${resource.noun}`, updateDescription, true))
      .mutation(updateResolver),
  });

  return { main, aliases };
}
