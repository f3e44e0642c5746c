// Progress on a terminal: files done / total, rewritten, ETA, on one line of
// stderr redrawn at most four times a second. Not a terminal (CI, pipes,
// tests): nothing here; the CLI prints one summary line at the end.
export interface Progress {
  add(done: number, written: number): void;
  end(): void;
}

const SILENT: Progress = { add() {}, end() {} };

export function progress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total === 0) return SILENT;
  const started = performance.now();
  let done = 0;
  let written = 0;
  let shown = 0;
  const draw = () => {
    const elapsed = (performance.now() - started) / 1000;
    const eta = done > 0 ? (elapsed * (total - done)) / done : 0;
    const pct = ((100 * done) / total).toFixed(1);
    stream.write(`\r\x1b[K  files ${done.toLocaleString('en')}/${total.toLocaleString('en')} (${pct} %), ${written.toLocaleString('en')} rewritten, ETA ${clock(eta)}`);
  };
  return {
    add(d, w) {
      done += d;
      written += w;
      const now = performance.now();
      if (now - shown > 250) {
        shown = now;
        draw();
      }
    },
    end() {
      stream.write('\r\x1b[K');
    },
  };
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
