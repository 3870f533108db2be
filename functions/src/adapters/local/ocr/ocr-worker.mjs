// tsx's `--import tsx` deliberately skips worker threads on Node 20, and vitest never passes it, so
// a worker registers the TypeScript loader itself before loading the real entry.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
