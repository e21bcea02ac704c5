import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { restRouter } from "@calendar/core";
import { API_PATH, DOCUMENTED_ROOT } from "./rest/base-paths.ts";
import { createApiDocument } from "./rest/document.ts";

/**
 * Writes `apps/api/openapi.json`: the document `/cal/events/v1/doc` serves, with server URLs relative to wherever
 * the API runs (for generating REST clients, e.g. with openapi-typescript).
 */
const document = createApiDocument(restRouter).forRequest(API_PATH, "", DOCUMENTED_ROOT);
const target = fileURLToPath(new URL("../openapi.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
console.log(`Wrote ${target}`);
