import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import {
  type AttemptOutcome,
  resolveWebhookTarget,
  type WebhookTarget,
  type WebhookTargetPolicy,
} from "@calendar/core";
import { Webhook } from "standardwebhooks";

/** What one delivery sends. */
export interface WebhookMessage {
  url: string;
  secret: string;
  /** The `webhook-id`: the same on every retry of the delivery. */
  messageId: string;
  body: string;
}

export interface SendOptions {
  /** Checked again at every delivery: the URL's name may resolve elsewhere by now. */
  policy: WebhookTargetPolicy;
  timeoutMs: number;
}

/** Bytes of a receiver's answer read at most (the rest is dropped: only the status counts). */
const RESPONSE_LIMIT = 4_096;
const USER_AGENT = "Calendar-Webhooks/1";

/** Connects to the address the check allowed, whatever the name resolves to by now. */
function pinnedLookup(target: WebhookTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** The Standard Webhooks headers, signed now over `<id>.<timestamp>.<body>` with the secret's bytes. */
export function signedHeaders(message: WebhookMessage, now = new Date()): Record<string, string> {
  return {
    "webhook-id": message.messageId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(message.secret).sign(message.messageId, now, message.body),
  };
}

/** One POST of a delivery: the status code, or why none came. Never follows a redirect (a 3xx is a failure). */
function post(target: WebhookTarget, message: WebhookMessage, timeoutMs: number): Promise<number> {
  const transport = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(target.url, {
      method: "POST",
      lookup: pinnedLookup(target),
      headers: {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(message.body)),
        "user-agent": USER_AGENT,
        ...signedHeaders(message),
      },
    });
    const timer = setTimeout(() => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`)), timeoutMs);
    request.on("response", (response) => {
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > RESPONSE_LIMIT) response.destroy();
      });
      const done = () => {
        clearTimeout(timer);
        resolve(response.statusCode ?? 0);
      };
      response.on("end", done);
      response.on("close", done);
      response.on("error", done);
    });
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(message.body);
  });
}

/**
 * Sends a delivery: checks the URL again (DNS may have changed since it was registered), connects to the checked
 * address, and reports the outcome; a 2xx answer is a success.
 */
export async function sendWebhook(message: WebhookMessage, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const target = await resolveWebhookTarget(message.url, options.policy);
    const status = await post(target, message, options.timeoutMs);
    const succeeded = status >= 200 && status < 300;
    return {
      succeeded,
      responseStatus: status,
      durationMs: took(),
      error: succeeded ? "" : `The receiver answered ${status}.`,
    };
  } catch (error) {
    return { succeeded: false, responseStatus: null, durationMs: took(), error: (error as Error).message };
  }
}
