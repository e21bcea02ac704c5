import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { documentOf, operationsOf } from "../rest/api-document.ts";
import { chromiumAvailable, useBrowser } from "../support/browser.ts";
import { single } from "../support/narrow.ts";
import { useTestServer } from "../support/server.ts";

const ROOT = "/cal/events/v1";

/** A wall time a week ahead, inside the default window of `GET /events`. */
function nextWeek(time: string): string {
  return `${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)} ${time}`;
}

describe.skipIf(!chromiumAvailable())("the API explorer in headless Chromium", () => {
  const browser = useBrowser();

  // One page per database, loaded once (Swagger UI takes seconds to start): the tests below run on it in order.
  describe.each(PROVIDERS)("%s", (provider) => {
    const server = useTestServer(provider);
    const requested: string[] = [];
    /** What the browser reported against the page's Content-Security-Policy, and errors the page threw. */
    const refused: string[] = [];
    let policy: string | undefined;
    let page: Page | undefined;

    beforeAll(async () => {
      await server.call("POST /events", {
        as: server.users.editor,
        body: { title: "Explorer concert", start_date: nextWeek("19:00:00"), end_date: nextWeek("21:00:00") },
        status: 201,
      });
      page = await browser.page();
      page.setDefaultTimeout(15_000);
      page.on("request", (request) => requested.push(request.url()));
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      page.on("pageerror", (error) => refused.push(error.message));
      // What a browser sends to /cal/events/v1/doc: it prefers HTML, so it gets the explorer.
      const answer = await page.goto(`${server.origin}${ROOT}/doc`);
      policy = (await answer?.allHeaders())?.["content-security-policy"];
      await page.locator("#operations-events-events-list").waitFor();
    });

    function explorer(): Page {
      if (!page) throw new Error("The page opens in beforeAll.");
      return page;
    }

    /** Opens an operation, switches it to "Try it out", runs it and returns the status and body the page shows. */
    async function tryOut(operation: string): Promise<{ status: string; body: string }> {
      const block = explorer().locator(`#operations-${operation}`);
      await block.locator(".opblock-summary").click();
      await block.getByRole("button", { name: "Try it out" }).click();
      await block.getByRole("button", { name: "Execute" }).click();
      await block.locator(".live-responses-table .response").first().waitFor();
      const text = async (selector: string) => ((await block.locator(selector).first().textContent()) ?? "").trim();
      return {
        status: await text(".live-responses-table .response .response-col_status"),
        body: await text(".live-responses-table .response-col_description pre"),
      };
    }

    it("renders every operation of the document, grouped by resource, loading nothing from elsewhere", async () => {
      const operations = operationsOf(await documentOf(server));
      expect(await explorer().locator(".opblock").count()).toBe(operations.length);
      expect(await explorer().locator(".opblock-tag").allInnerTexts()).toEqual([
        expect.stringMatching(/^events/),
        expect.stringMatching(/^venues/),
        expect.stringMatching(/^organizers/),
        expect.stringMatching(/^categories/),
        expect.stringMatching(/^tags/),
        expect.stringMatching(/^changes/),
        expect.stringMatching(/^import/),
        expect.stringMatching(/^webhooks/),
      ]);
      expect(requested.filter((url) => !url.startsWith(`${server.origin}/`))).toEqual([]);
    });

    it("runs GET /events and shows 200 with the events", async () => {
      const { status, body } = await tryOut("events-events-list");
      expect(status).toBe("200");
      const list: RouterOutputs["events"]["list"] = JSON.parse(body);
      expect(list.events.map((event) => event.title)).toEqual(["Explorer concert"]);
      expect(list.total).toBe(1);
    });

    it("creates an event from the example body once authorized with a bearer token (201)", async () => {
      await explorer().getByRole("button", { name: "Authorize" }).first().click();
      const bearer = explorer().locator(".auth-container").filter({ hasText: "(http, Bearer)" });
      await bearer.getByLabel("auth-bearer-value").fill(server.users.editor.token);
      await bearer.getByRole("button", { name: "Apply credentials" }).click();
      await bearer.getByRole("button", { name: "Close" }).click();
      const { status, body } = await tryOut("events-events-create");
      expect(status).toBe("201");
      const event: RouterOutputs["events"]["create"] = JSON.parse(body);
      expect(event.title).toBe("Jazz on the terrace");
      const stored = await server.call("GET /events/{id}", { params: { id: event.id } });
      expect(single(stored.body.venue).venue).toBe("Terrasse du Port");
    });

    // Last, so it covers everything the tests above did on the page: rendering, authorizing, "Try it out".
    it("works under the page's Content-Security-Policy: nothing refused, no script error", () => {
      expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/=]+'; /);
      expect(refused).toEqual([]);
    });
  });
});
