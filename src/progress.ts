// Progress for long work: one rewritten line on stderr when it is a terminal,
// nothing otherwise (so --json output and logs stay clean).
export interface Progress {
  update(message: string): void;
  done(): void;
}

export const silentProgress: Progress = { update() {}, done() {} };

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return silentProgress;
  let last = 0;
  let shown = false;
  return {
    update(message) {
      const t = performance.now();
      if (t - last < 80) return;
      last = t;
      shown = true;
      const width = (stream.columns ?? 100) - 1;
      stream.write(`\r\x1b[2K${message.length > width ? message.slice(0, width - 1) + '…' : message}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
