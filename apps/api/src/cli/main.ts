import { createInterface } from "node:readline/promises";
import { DomainError } from "@calendar/core";
import { CommanderError } from "commander";
import { ConfigError, loadDotEnv } from "../config.ts";
import { type CliOutput, createProgram } from "./program.ts";

const EXIT_CONFIG = 78;

async function confirm(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await terminal.question(`${question} [y/N] `)).trim());
  } finally {
    terminal.close();
  }
}

const output: CliOutput = {
  out: (text: string) => process.stdout.write(text),
  err: (text: string) => process.stderr.write(text),
  ...(process.stdin.isTTY && process.stdout.isTTY ? { confirm } : {}),
};

try {
  loadDotEnv();
  await createProgram(output).parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode;
  } else if (error instanceof ConfigError) {
    output.err(`${error.message}\n`);
    process.exitCode = EXIT_CONFIG;
  } else if (error instanceof DomainError) {
    output.err(`error: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
