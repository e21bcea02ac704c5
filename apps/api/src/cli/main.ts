import { DomainError } from "@calendar/core";
import { CommanderError } from "commander";
import { ConfigError, loadDotEnv } from "../config.ts";
import { createProgram } from "./program.ts";

const EXIT_CONFIG = 78;

const output = {
  out: (text: string) => process.stdout.write(text),
  err: (text: string) => process.stderr.write(text),
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
