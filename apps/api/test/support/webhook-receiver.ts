import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers: a status code, a dropped connection (a network error), or never. */
export type ReceiverAnswer = number | "drop" | "hang";

/** A webhook receiver on 127.0.0.1 that records every request and answers as the test says. */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let answer: ReceiverAnswer = 204;
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      if (answer === "drop") request.socket.destroy();
      else if (answer !== "hang") response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(next: ReceiverAnswer) {
      answer = next;
    },
    /** The bodies of the requests whose signature verifies with `secret`, parsed (throws on a bad signature). */
    verified(secret: string): Array<{ type: string; timestamp: string; data: Record<string, unknown> }> {
      const webhook = new Webhook(secret);
      return received.map(({ headers, body }) => webhook.verify(body, headers as Record<string, string>) as never);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
