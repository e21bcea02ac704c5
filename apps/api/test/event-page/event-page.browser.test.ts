import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { chromiumAvailable, useBrowser } from "../support/browser.ts";
import { useTestServer } from "../support/server.ts";

describe.skipIf(!chromiumAvailable())("the public event page in headless Chromium", () => {
  describe.each(PROVIDERS)("%s", (provider) => {
    const server = useTestServer(provider);
    // After the server, so that it closes first (hooks unwind): its open connections would hold the server's close.
    const browser = useBrowser();

    it("shows the event, offers its calendar file and breaks no policy of the page", async () => {
      const created = await server.call("POST /events", {
        base: "/de/cal/events/v1",
        status: 201,
        as: server.users.editor,
        body: {
          title: "Sommerfest",
          start_date: "2030-07-04 18:00:00",
          end_date: "2030-07-04 23:00:00",
          timezone: "Europe/Berlin",
          venue: { venue: "Stadtpark", city: "Hamburg" },
        },
      });
      const page = await browser.page();
      const problems: string[] = [];
      // Policy violations and script errors show on the console; the browser's own favicon request is no problem.
      page.on("console", (message) => {
        if (!message.text().startsWith("Failed to load resource")) problems.push(message.text());
      });
      page.on("response", (answer) => {
        if (answer.status() >= 400 && !answer.url().endsWith("/favicon.ico")) problems.push(answer.url());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      const response = await page.goto(created.body.url);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe("Sommerfest");
      expect(await page.locator("html").getAttribute("lang")).toBe("de");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sommerfest");
      expect(await page.locator("time").first().textContent()).toBe("4. Juli 2030 um 18:00 MESZ");
      expect(await page.locator("dd").nth(2).textContent()).toBe("Stadtpark, Hamburg");
      const download = page.getByRole("link", { name: "Add to calendar" });
      const ics = await fetch(new URL((await download.getAttribute("href")) ?? "", page.url()));
      expect(ics.status).toBe(200);
      expect(await ics.text()).toContain("SUMMARY:Sommerfest");
      const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
      expect(JSON.parse(jsonLd ?? "")).toMatchObject({ "@type": "Event", name: "Sommerfest" });
      expect(problems).toEqual([]);
    });

    it("shows the not-found page for an unknown event", async () => {
      const page = await browser.page();
      const response = await page.goto(`${server.origin}/event/nothing-here/`);
      expect(response?.status()).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Event not found");
    });
  });
});
