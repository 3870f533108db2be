/**
 * The migration's progress on the operator's terminal: a bar redrawn in place on a TTY, else (a
 * log, CI) one line each time another 10 % is done.
 */
export function progressPrinter(stream: NodeJS.WriteStream) {
  let lastTenth = -1;
  let lastDraw = 0;
  return {
    update(done: number, total: number, detail: string) {
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const percent = Math.floor(share * 100);
      if (stream.isTTY) {
        const now = Date.now();
        if (now - lastDraw < 100 && share < 1) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round(share * width);
        stream.write(
          `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percent).padStart(3)} %  ${detail}\x1b[K`,
        );
        return;
      }
      const tenth = Math.floor(percent / 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`${String(percent).padStart(3)} %  ${detail}\n`);
    },
    end() {
      if (stream.isTTY) stream.write("\n");
    },
  };
}
