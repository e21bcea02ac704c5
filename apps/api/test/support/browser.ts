import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless, and quiet: no first-run pages, no background requests of the browser's own. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Can the browser tests run here? Without Chromium they are skipped with a notice, except in CI (`CI` set),
 * where a missing browser is an error rather than a silently smaller test run.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const advice = `no Chromium at ${CHROMIUM_PATH}: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH`;
  if (process.env.CI) throw new Error(`The browser tests cannot run in CI: ${advice}.`);
  console.warn(`NOTICE: the explorer's browser tests are skipped (${advice}).`);
  return false;
}

/** One headless Chromium for a test file, with a fresh, empty profile; `page()` opens a new tab. */
export function useBrowser() {
  let context: BrowserContext | undefined;
  let profile: string | undefined;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), "calendar-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  return {
    async page(): Promise<Page> {
      if (!context) throw new Error("The browser starts in beforeAll.");
      return context.newPage();
    },
  };
}
