import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const compressible = new Set([".html", ".js", ".css", ".svg", ".json", ".webmanifest"]);
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `name.br` and `name.gz` next to every text file of the build, at the strongest levels:
 * done once here (a few seconds), the local runtime only picks the copy a browser accepts
 * (functions/local/static-files.ts) instead of compressing on each request. CloudFront compresses
 * by itself, so the deployment leaves these copies out (infra/lib/site.ts).
 */
export function precompress(): Plugin {
  let outDir = "";
  return {
    name: "dorsal:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && compressible.has(path.extname(entry.name)))
        .map((entry) => path.join(entry.parentPath, entry.name))
        // The build manifest (.vite/) is read by tests from disk, never served.
        .filter(
          (file) =>
            !path
              .relative(outDir, file)
              .split(path.sep)
              .some((segment) => segment.startsWith(".")),
        );
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}
