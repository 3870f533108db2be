import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { decodePath } from "./http-bridge";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};

type Encoding = "br" | "gzip" | "identity";

/** The copies the build writes next to a file (frontend/precompress.ts), in the order we prefer them. */
const precompressed: readonly { encoding: Encoding; suffix: string }[] = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
];

/** Vite puts a hash of the content in every name under /assets: a name never changes meaning. */
const hashedAssets = "public, max-age=31536000, immutable";
/** index.html and the other unhashed files can change with any build: the browser asks each time (304 if unchanged). */
const revalidate = "no-cache";

interface Representation {
  encoding: Encoding;
  body: Buffer;
  etag: string;
}

interface LoadedFile {
  contentType: string;
  identity: Representation;
  /** Only the copies smaller than the file, in the order we prefer them. */
  compressed: Representation[];
}

/**
 * Serves the built SPA like CloudFront does (infra/lib/site.ts): a path naming a file gets that
 * file or 404, any other path gets index.html. Each file is read once (again when a build replaces
 * it) and kept in memory with the brotli and gzip copies the build made, and is sent in the
 * encoding the browser accepts, with an ETag so a revalidation costs a 304.
 */
export function createStaticFiles(root: string) {
  const index = path.join(root, "index.html");
  const files = new Map<string, { version: string; loaded: Promise<LoadedFile> }>();

  /** The file as last read, unless the build replaced it since (a stat per request, no read). */
  async function current(file: string): Promise<LoadedFile | undefined> {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      files.delete(file);
      return undefined;
    }
    const version = `${info.mtimeMs}:${info.size}`;
    const known = files.get(file);
    if (known?.version === version) return known.loaded;
    const loaded = load(file);
    files.set(file, { version, loaded });
    loaded.catch(() => {
      if (files.get(file)?.loaded === loaded) files.delete(file);
    });
    return loaded;
  }

  return async (request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
      response.end("Método no permitido.");
      return;
    }
    const relative = decodePath(pathname);
    const requested = path.join(root, relative);
    const servable = requested.startsWith(root + path.sep) && !isHiddenOrPrecompressed(relative);
    const found = servable ? await current(requested) : undefined;
    const lastSegment = relative.slice(relative.lastIndexOf("/") + 1);
    if (!found && lastSegment.includes(".")) {
      // As in CloudFront: a missing file is not a route; an old chunk must fail, not become HTML.
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": revalidate });
      response.end("No existe ese archivo.");
      return;
    }
    const file = found ?? (await current(index));
    if (!file) {
      response.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
      response.end("La interfaz no está compilada: ejecuta `npm run build` (npm start lo hace por ti).");
      return;
    }

    const chosen = negotiate(request.headers["accept-encoding"], file.compressed) ?? file.identity;
    const headers: Record<string, string | number> = {
      "cache-control": found && relative.startsWith("/assets/") ? hashedAssets : revalidate,
      etag: chosen.etag,
    };
    if (file.compressed.length > 0) headers.vary = "Accept-Encoding";
    if (matchesIfNoneMatch(request.headers["if-none-match"], chosen.etag)) {
      response.writeHead(304, headers);
      response.end();
      return;
    }
    headers["content-type"] = file.contentType;
    headers["content-length"] = chosen.body.length;
    if (chosen.encoding !== "identity") headers["content-encoding"] = chosen.encoding;
    response.writeHead(200, headers);
    response.end(request.method === "HEAD" ? undefined : chosen.body);
  };
}

/** Dot-files (the build manifest in .vite/) and the compressed copies are the server's, not URLs. */
function isHiddenOrPrecompressed(relative: string): boolean {
  return (
    relative.split(/[\\/]/).some((segment) => segment.startsWith(".")) ||
    precompressed.some(({ suffix }) => relative.endsWith(suffix))
  );
}

async function load(file: string): Promise<LoadedFile> {
  const body = await readFile(file);
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  const compressed: Representation[] = [];
  for (const { encoding, suffix } of precompressed) {
    const copy = await readFile(file + suffix).catch(() => undefined);
    if (copy && copy.length < body.length) compressed.push({ encoding, body: copy, etag: `"${hash}-${encoding}"` });
  }
  return {
    contentType: types[path.extname(file)] ?? "application/octet-stream",
    identity: { encoding: "identity", body, etag: `"${hash}"` },
    compressed,
  };
}

/**
 * The compressed copy to send for an Accept-Encoding header (RFC 9110 §12.5.3): the accepted
 * encoding with the highest q, ours preferred on a tie; none (identity) if none is accepted.
 */
function negotiate(header: string | undefined, compressed: Representation[]): Representation | undefined {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  let best: Representation | undefined;
  let bestWeight = 0;
  for (const representation of compressed) {
    const weight = weights.get(representation.encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = representation;
      bestWeight = weight;
    }
  }
  return best;
}

/** Weak comparison, as If-None-Match asks: `W/"x"` matches `"x"`; `*` matches anything. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}
