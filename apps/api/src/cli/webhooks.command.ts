import {
  type Actor,
  createWebhook,
  DomainError,
  deleteWebhook,
  listWebhookAttempts,
  listWebhooks,
  parseOrThrow,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookScope,
  webhookCreateBody,
  webhookDeliveriesQuery,
  webhookUpdateBody,
} from "@calendar/core";
import type { Command } from "commander";
import type { Config } from "../config.ts";
import { positiveInteger, table, withDatabase } from "./database.ts";
import type { CliOutput } from "./program.ts";

/** Whoever runs the command line on the server's database administers it. */
const OPERATOR: Actor = { kind: "user", id: 0, login: "calendar-cli", role: "administrator" };

/** A refused parameter, with the reason of each (the service's error names only the parameters). */
function explained(error: unknown): unknown {
  if (!(error instanceof DomainError) || typeof error.extra.params !== "object" || error.extra.params === null) {
    return error;
  }
  const reasons = Object.entries(error.extra.params).map(([name, reason]) => `--${name}: ${reason}`);
  return error.withMessage(reasons.join("\n"));
}

interface FieldOptions {
  url?: string;
  types?: string;
  actions?: string;
  description?: string;
  active?: string;
  json?: boolean;
}

/** The flags that were given, as the REST body would carry them. */
function bodyOf(options: FieldOptions): Record<string, string> {
  const { json: _json, ...fields } = options;
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** What every webhook command does: its work on the database as the operator, and its printing. */
interface WebhookCli {
  run<T>(work: (scope: WebhookScope) => Promise<T>): Promise<T>;
  print(value: unknown, json: boolean | undefined, text: string): void;
  output: CliOutput;
}

const shown = (secret: string) => `Secret (shown once, keep it safe): ${secret}\n`;

/** `calendar webhooks …`: the administrator's webhook operations of the API, on the database directly. */
export function registerWebhooksCommand(program: Command, output: CliOutput, config: () => Config): void {
  const cli: WebhookCli = {
    async run(work) {
      const settings = config();
      const policy = {
        allowInsecure: settings.CALENDAR_WEBHOOKS_ALLOW_INSECURE,
        ports: settings.CALENDAR_WEBHOOKS_PORTS,
      };
      try {
        return await withDatabase(settings, output, "write", ({ db }) => work({ db, actor: OPERATOR, policy }));
      } catch (error) {
        throw explained(error);
      }
    },
    print: (value, json, text) => output.out(json ? `${JSON.stringify(value)}\n` : text),
    output,
  };
  const webhooks = program.command("webhooks").description("Webhook subscriptions: URLs that receive every change.");
  registerSubscriptionCommands(webhooks, cli);
  registerMaintenanceCommands(webhooks, cli);
}

/** `webhooks create|list|update`. */
function registerSubscriptionCommands(webhooks: Command, { run, print }: WebhookCli): void {
  webhooks
    .command("create")
    .description("Subscribe a URL to the changes and print its signing secret (shown once).")
    .requiredOption("--url <url>", "the https:// URL the changes are POSTed to")
    .option("--types <types>", "record types, comma-separated (default: all): event,venue,organizer,category,tag")
    .option("--actions <actions>", "actions, comma-separated (default: all): created,updated,trashed,deleted")
    .option("--description <text>", "a note for administrators")
    .option("--json", "print the subscription as JSON, with its secret")
    .action(async (options: FieldOptions) => {
      const created = await run((scope) => createWebhook(scope, parseOrThrow(webhookCreateBody, bodyOf(options))));
      print(created, options.json, `Created webhook ${created.id} for ${created.url}.\n${shown(created.secret)}`);
    });
  webhooks
    .command("list")
    .description("List the subscriptions.")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const rows = await run((scope) => listWebhooks(scope));
      const summary = rows.map(({ id, url, types, actions, active, disabled_reason }) => ({
        id,
        url,
        types: types.join(",") || "all",
        actions: actions.join(",") || "all",
        active,
        disabled_reason,
      }));
      print(rows, options.json, `${table(summary)}\n`);
    });
  webhooks
    .command("update")
    .description("Change a subscription's URL, types, actions, description, or turn it off and on.")
    .requiredOption("--id <id>", "the subscription's id", positiveInteger)
    .option("--url <url>", "the new URL")
    .option("--types <types>", "record types, comma-separated (empty: all)")
    .option("--actions <actions>", "actions, comma-separated (empty: all)")
    .option("--description <text>", "a note for administrators")
    .option("--active <boolean>", "false pauses deliveries; true resumes them with the changes from then on")
    .option("--json", "print JSON")
    .action(async (options: FieldOptions & { id: number }) => {
      const updated = await run((scope) => updateWebhook(scope, parseOrThrow(webhookUpdateBody, bodyOf(options))));
      print(updated, options.json, `Updated webhook ${updated.id} (${updated.active ? "active" : "inactive"}).\n`);
    });
}

/** `webhooks delete|rotate-secret|deliveries`. */
function registerMaintenanceCommands(webhooks: Command, { run, print, output }: WebhookCli): void {
  webhooks
    .command("delete")
    .description("Delete a subscription with its queued deliveries.")
    .requiredOption("--id <id>", "the subscription's id", positiveInteger)
    .action(async (options: { id: number }) => {
      const deleted = await run((scope) => deleteWebhook(scope, options.id));
      output.out(`Deleted webhook ${deleted.id} (${deleted.url}).\n`);
    });
  webhooks
    .command("rotate-secret")
    .description("Give a subscription a new signing secret (shown once); the old one stops working at once.")
    .requiredOption("--id <id>", "the subscription's id", positiveInteger)
    .option("--json", "print JSON")
    .action(async (options: { id: number; json?: boolean }) => {
      const rotated = await run((scope) => rotateWebhookSecret(scope, options.id));
      print(rotated, options.json, shown(rotated.secret));
    });
  webhooks
    .command("deliveries")
    .description("List a subscription's most recent delivery attempts.")
    .requiredOption("--id <id>", "the subscription's id", positiveInteger)
    .option("--limit <count>", "attempts to list (1 to 100, default 20)")
    .option("--json", "print JSON")
    .action(async (options: { id: number; limit?: string; json?: boolean }) => {
      const query = parseOrThrow(webhookDeliveriesQuery, { id: options.id, per_page: options.limit });
      const { attempts } = await run((scope) => listWebhookAttempts(scope, query));
      print(attempts, options.json, `${table(attempts)}\n`);
    });
}
