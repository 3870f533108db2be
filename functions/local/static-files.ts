import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
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

/** Serves the built SPA like CloudFront does: files as they are, any other path gets index.html. */
export function createStaticFiles(root: string) {
  const index = path.join(root, "index.html");
  return async (pathname: string, response: ServerResponse): Promise<void> => {
    const requested = path.normalize(path.join(root, decodePath(pathname)));
    const inside = requested.startsWith(root + path.sep);
    const file = inside && (await stat(requested).catch(() => undefined))?.isFile() ? requested : index;
    const info = await stat(file).catch(() => undefined);
    if (!info) {
      response.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
      response.end("La interfaz no está compilada: ejecuta `npm run build` (npm start lo hace por ti).");
      return;
    }
    // Vite fingerprints assets, so they can be cached forever; index.html must always be fresh.
    const cache = file === index ? "no-cache" : "public, max-age=31536000, immutable";
    response.writeHead(200, {
      "content-type": types[path.extname(file)] ?? "application/octet-stream",
      "content-length": info.size,
      "cache-control": cache,
    });
    createReadStream(file).pipe(response);
  };
}
