import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./commands.ts";

/** The address the README's examples are written for; the tests put their server's in its place. */
const WRITTEN_FOR = "http://127.0.0.1:3000";

/**
 * A TypeScript example of the README's client section (`<!-- client-example: name -->` before the fenced block),
 * with what it prints: its comment-only lines, in order.
 */
export function clientExample(name: string): { code: string; prints: string[] } {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const marked = new RegExp(`<!-- client-example: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\\n\`\`\``);
  const code = marked.exec(readme)?.[1];
  if (code === undefined) throw new Error(`The README has no client example "${name}".`);
  const prints = code.split("\n").flatMap((line) => /^\s*\/\/ (.*)$/.exec(line)?.[1] ?? []);
  return { code, prints };
}

/** An example's (compiled) code, calling the server at `origin`. */
export function addressedTo(code: string, origin: string): string {
  return code.replaceAll(WRITTEN_FOR, origin);
}
