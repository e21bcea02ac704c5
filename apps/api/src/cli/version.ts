import { readFileSync } from "node:fs";

const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

/** The api package's version, which `calendar --version` prints. */
export const CLI_VERSION =
  typeof manifest === "object" && manifest !== null && "version" in manifest ? String(manifest.version) : "unknown";
