import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** How many files the slowest-files table lists. */
const SLOWEST_SHOWN = 20;

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`.padStart(8);
}

/**
 * Ends the run with the slowest test files, so that a log shows where the time goes: each file's time in its worker
 * (importing it, then its tests and hooks), with its project.
 */
export class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules.map((module) => {
      const { collectDuration, duration, environmentSetupDuration, prepareDuration, setupDuration } =
        module.diagnostic();
      const imports = collectDuration + environmentSetupDuration + prepareDuration + setupDuration;
      return {
        name: `${module.project.name} ${relative(process.cwd(), module.moduleId)}`,
        imports,
        total: imports + duration,
      };
    });
    const slowest = files.sort((a, b) => b.total - a.total).slice(0, SLOWEST_SHOWN);
    if (!slowest.length) return;
    console.log(`\nThe ${slowest.length} slowest test files (total, of which importing and collecting):`);
    for (const file of slowest) console.log(`${seconds(file.total)} ${seconds(file.imports)}  ${file.name}`);
  }
}

/** Ends the run with one plain line, `N passed, N failed, N skipped`, that CI systems can read. */
export class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
    }
    console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
