import { readFileSync } from "node:fs";
import path from "node:path";

/** One chunk of Vite's build manifest (frontend/dist/.vite/manifest.json), as far as we read it. */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

export const distDir = path.resolve(import.meta.dirname, "../../frontend/dist");

/** The athlete's page: its module, if a route loads it on demand, is a chunk of its own. */
const searchPageSource = "src/features/search/components/search-page.tsx";

/**
 * The JavaScript files a visitor downloads before `/search` can show a result: the entry of
 * index.html and its static imports (which index.html also modulepreloads), plus the search
 * page's chunk and its static imports when the route loads it on demand. Paths relative to dist.
 */
export function searchFirstLoadScripts(dist = distDir): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const entry = manifest["index.html"];
  if (!entry?.isEntry) throw new Error("the build manifest has no index.html entry: run `npm run build`");
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no chunk ${key}`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit("index.html");
  if (manifest[searchPageSource]) visit(searchPageSource);
  // What index.html itself makes the browser fetch, in case the manifest ever says less.
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  for (const [, file] of html.matchAll(
    /<(?:script type="module"[^>]*src|link rel="modulepreload"[^>]*href)="\/([^"]+)"/g,
  ))
    if (file) files.add(file);
  return [...files];
}
