/**
 * A one-line progress bar on a terminal (redrawn in place, at most every 100 ms), or a line per tenth when the
 * output is a file or a pipe. Hand-written: a few lines do what a progress library would.
 */
export interface ProgressBar {
  update(done: number): void;
  finish(): void;
}

const WIDTH = 30;
const REDRAW_MS = 100;

export function progressBar(
  label: string,
  total: number,
  stream: { write(text: string): unknown; isTTY?: boolean } = process.stderr,
): ProgressBar {
  const started = Date.now();
  let drawnAt = 0;
  let lastTenth = -1;
  const line = (done: number) => {
    const share = total === 0 ? 1 : Math.min(done / total, 1);
    const filled = Math.round(share * WIDTH);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return `${label} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${Math.floor(share * 100)}% ${done}/${total} ${seconds}s`;
  };
  return {
    update(done) {
      if (stream.isTTY) {
        if (Date.now() - drawnAt < REDRAW_MS && done < total) return;
        drawnAt = Date.now();
        stream.write(`\r${line(done)}`);
        return;
      }
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`${line(done)}\n`);
    },
    finish() {
      if (stream.isTTY) stream.write("\n");
    },
  };
}
