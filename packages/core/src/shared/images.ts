import { z } from "zod";
import type { Tx } from "../db/db.ts";
import { invalidParam } from "../errors.ts";

/**
 * The `image` write field: an http(s) URL (stored as an image record) or the id of an image record; `""`, `0`
 * or null clear it. The service never fetches the URL (no server-side requests to user-given addresses).
 */
export const imageRef = z
  .union([z.string().trim().max(2048), z.number().int().nonnegative(), z.null()])
  .meta({ description: "Featured image: an http(s) URL, the id of an image, or empty to remove it." });
export type ImageRef = z.infer<typeof imageRef>;

const DECIMAL = /^\d+$/;

/** Is `text` an absolute http(s) URL? */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The image id to store for an `image` value (null = none). Throws 400 naming `field` when invalid. */
export async function resolveImage(tx: Tx, value: ImageRef, field = "image"): Promise<number | null> {
  if (value === null || value === "" || value === 0 || value === "0") return null;
  const id = typeof value === "number" ? value : DECIMAL.test(value) ? Number(value) : undefined;
  if (id !== undefined) {
    if (!(await tx.image.findUnique({ where: { id } }))) throw invalidParam(field, `No image with id ${id}.`);
    return id;
  }
  if (typeof value !== "string" || !isHttpUrl(value)) {
    throw invalidParam(field, "Must be an http(s) URL or the id of an image.");
  }
  const existing = await tx.image.findFirst({ where: { url: value }, select: { id: true } });
  return existing?.id ?? (await tx.image.create({ data: { url: value } })).id;
}

/** What presenters need of an image record. */
export interface ImageRecord {
  id: number;
  url: string;
}

/**
 * Rows with their image record, read in one query for all of them, and in none when no row has an image (a Prisma
 * `include` would query for the null keys too).
 */
export async function withImages<T extends { imageId: number | null }>(
  db: Tx,
  rows: readonly T[],
): Promise<Array<T & { image: ImageRecord | null }>> {
  const ids = [...new Set(rows.flatMap((row) => (row.imageId === null ? [] : [row.imageId])))];
  const images = ids.length
    ? await db.image.findMany({ where: { id: { in: ids } }, select: { id: true, url: true } })
    : [];
  const byId = new Map(images.map((image) => [image.id, image]));
  return rows.map((row) => ({ ...row, image: row.imageId === null ? null : (byId.get(row.imageId) ?? null) }));
}

/** One row with its image record (no query when it has none). */
export async function withImage<T extends { imageId: number | null }>(
  db: Tx,
  row: T,
): Promise<T & { image: ImageRecord | null }> {
  const [loaded] = await withImages(db, [row]);
  return loaded ?? { ...row, image: null };
}

/** The wire shape of a present image (`presentImage` without the `false` case). */
export const imageOutput = z.object({
  url: z.string(),
  id: z.number().int(),
  extension: z.string(),
  width: z.null(),
  height: z.null(),
  sizes: z.object({}),
});

/** `false`, or the image object of the reference (dimensions are unknown: the URL is never fetched). */
export function presentImage(image: { id: number; url: string } | null) {
  if (!image) return false as const;
  const extension = /\.([a-z0-9]{1,5})(?:$|[?#])/i.exec(new URL(image.url).pathname)?.[1]?.toLowerCase() ?? "";
  return { url: image.url, id: image.id, extension, width: null, height: null, sizes: {} };
}
