import type { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { messages } from "@dorsal/shared";
import type { APIGatewayProxyEventV2, S3Event } from "aws-lambda";
import { ensureAdmin } from "../src/app/auth";
import { sweepDownloadZips } from "../src/app/original-zip";
import { reconcilePendingSales } from "../src/app/sales";
import { downloadZipPrefix, zipUploadPrefix } from "../src/app/storage-paths";
import { resumeZipBatches } from "../src/app/zip-import";
import { type Container, compose, provideContainer } from "../src/compose";
import { parseConfig } from "../src/config";
import { handler as adminHandler } from "../src/handlers/http/admin";
import { handler as applicationsHandler } from "../src/handlers/http/applications";
import { handler as authHandler } from "../src/handlers/http/auth";
import { handler as browseHandler } from "../src/handlers/http/browse";
import { handler as codesHandler } from "../src/handlers/http/codes";
import { handler as eventsHandler } from "../src/handlers/http/events";
import { handler as photosHandler } from "../src/handlers/http/photos";
import { handler as pricingHandler } from "../src/handlers/http/pricing";
import { handler as salesHandler } from "../src/handlers/http/sales";
import { handler as settingsHandler } from "../src/handlers/http/settings";
import { handler as usersHandler } from "../src/handlers/http/users";
import { handler as starterHandler } from "../src/handlers/pipeline/starter";
import { handler as unzipHandler } from "../src/handlers/pipeline/unzip";
import type { HttpHandlerName } from "../src/http/routes";
import { appSecurityHeaders } from "../src/http/security-headers";
import {
  jsonBodyMaxBytes,
  type LambdaHttpHandler,
  lambdaContext,
  MalformedPathError,
  matchRoute,
  readBody,
  toApiGatewayEvent,
  writeResult,
} from "./http-bridge";
import { createLocalObjectStore } from "./object-store-server";
import { createInProcessObjectStore } from "./s3rver-in-process";
import { parseLocalSettings } from "./settings";
import { createStaticFiles } from "./static-files";
import { ensureTable, startDynalite } from "./storage";
import { createWompiSandbox, sandboxPrefix, type WompiSandbox } from "./wompi-sandbox";

/**
 * The embedded runtime: one process that runs the same Lambda handlers, the same pipeline
 * definition and the same data layer as AWS, over protocol stand-ins (dynalite, s3rver,
 * aws-local-stepfunctions) with everything kept under DATA_DIR.
 */
const repoRoot = path.resolve(import.meta.dirname, "../..");
if (existsSync(path.join(repoRoot, ".env"))) process.loadEnvFile(path.join(repoRoot, ".env"));

// Lambda runs Node 22; locally Node 20 is supported on purpose, so the SDK need not say so on every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const settings = parseLocalSettings(process.env);
const dataDir = path.resolve(repoRoot, settings.DATA_DIR);
const region = process.env.AWS_REGION ?? "us-east-1";

const httpHandlers: Record<HttpHandlerName, LambdaHttpHandler> = {
  auth: authHandler as LambdaHttpHandler,
  events: eventsHandler as LambdaHttpHandler,
  photos: photosHandler as LambdaHttpHandler,
  users: usersHandler as LambdaHttpHandler,
  admin: adminHandler as LambdaHttpHandler,
  applications: applicationsHandler as LambdaHttpHandler,
  pricing: pricingHandler as LambdaHttpHandler,
  settings: settingsHandler as LambdaHttpHandler,
  sales: salesHandler as LambdaHttpHandler,
  codes: codesHandler as LambdaHttpHandler,
  browse: browseHandler as LambdaHttpHandler,
};

const dynamo = await startDynalite(dataDir);
await ensureTable(dynamo.endpoint, region, settings.TABLE_NAME);
// Known once the server listens (PORT=0 picks any free port).
let appOrigins: string[] = [];
let publicOrigin: URL | undefined;
let appHeaders: Record<string, string> = {};
const objectStore = await createLocalObjectStore({
  dataDir,
  buckets: { originals: settings.ORIGINALS_BUCKET, derived: settings.DERIVED_BUCKET },
  allowedOrigins: () => appOrigins,
  publicHost: () => publicOrigin?.host,
  https: () => publicOrigin?.protocol === "https:",
});
const serveStatic = createStaticFiles(path.join(repoRoot, "frontend", "dist"));
const maxBodyBytes = settings.MAX_BODY_MB * 1024 * 1024;
/** Form uploads held in memory at once, at most: past it a new one waits for the client's retry. */
const largeBodiesBudget = 2 * maxBodyBytes;
let largeBodiesInFlight = 0;

/**
 * Reads a request's body only when the route takes one that big, and — for the form uploads, the
 * only large bodies — only once the caller may use the route and memory allows. Otherwise answers
 * and returns undefined: a body too large is never read (the connection closes); a refused
 * caller's (401/403, or 503 when busy) is drained unread, so the client gets to read the answer.
 */
async function admittedBody(
  request: IncomingMessage,
  response: ServerResponse,
  handler: LambdaHttpHandler,
  headersOnly: APIGatewayProxyEventV2,
): Promise<Buffer | undefined> {
  const large = handler.routes[headersOnly.routeKey]?.multipart === true;
  const limit = large ? maxBodyBytes : jsonBodyMaxBytes;
  const tooLarge = { success: false, error: large ? messages.fileTooLarge : messages.requestTooLarge };
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > limit) return refuseUnread(response, 413, tooLarge);
  if (!large) return (await readBody(request, limit)) ?? refuseUnread(response, 413, tooLarge);

  const refused = await handler.refusal(headersOnly);
  if (refused) {
    request.resume();
    writeResult(response, refused);
    return undefined;
  }
  // A body of unknown length may grow to the limit.
  const reserved = declared || limit;
  if (largeBodiesInFlight + reserved > largeBodiesBudget) {
    request.resume();
    response.writeHead(503, { "content-type": "application/json; charset=utf-8", "retry-after": "5" });
    response.end(JSON.stringify({ success: false, error: messages.uploadsBusy }));
    return undefined;
  }
  largeBodiesInFlight += reserved;
  try {
    return (await readBody(request, limit)) ?? refuseUnread(response, 413, tooLarge);
  } finally {
    largeBodiesInFlight -= reserved;
  }
}

function refuseUnread(response: ServerResponse, status: number, body: object): undefined {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", connection: "close" });
  response.end(JSON.stringify(body));
  return undefined;
}

// Set once the port is known, unless real Wompi keys are configured.
let sandbox: WompiSandbox | undefined;

let resolveReady!: (container: Container) => void;
const ready = new Promise<Container>((resolve) => {
  resolveReady = resolve;
});

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  try {
    if (objectStore.owns(url.pathname)) {
      await objectStore.handle(request, response, url);
      return;
    }
    for (const [name, value] of Object.entries(appHeaders)) response.setHeader(name, value);
    if (sandbox && url.pathname.startsWith(`${sandboxPrefix}/`)) {
      await sandbox.handle(request, response, url);
      return;
    }
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      await ready;
      const match = matchRoute(request.method ?? "GET", url.pathname);
      if (!match) {
        response.writeHead(404, { "content-type": "application/json; charset=utf-8" });
        response.end(JSON.stringify({ success: false, error: messages.notFound }));
        return;
      }
      const handler = httpHandlers[match.route.handler];
      const routeKey = `${match.route.method} ${match.route.path}`;
      const headersOnly = toApiGatewayEvent(request, url, Buffer.alloc(0), routeKey, match.pathParameters);
      const body = await admittedBody(request, response, handler, headersOnly);
      if (!body) return;
      const event = { ...headersOnly, body: body.toString("base64") };
      const context = lambdaContext(`dorsal-${match.route.handler}`, settings.API_TIMEOUT_SECONDS * 1000);
      writeResult(response, await handler(event, context));
      return;
    }
    await serveStatic(request, response, url.pathname);
  } catch (error) {
    if (error instanceof MalformedPathError) {
      response.writeHead(400, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify({ success: false, error: messages.malformedPath }));
      return;
    }
    console.error("request failed", error);
    if (!response.headersSent) response.writeHead(500, { "content-type": "application/json; charset=utf-8" });
    response.end(JSON.stringify({ success: false, error: messages.internalError }));
  }
});

await new Promise<void>((resolve, reject) => {
  server.once("error", reject);
  server.listen(settings.PORT, () => resolve());
});
const port = (server.address() as AddressInfo).port;
const publicUrl = settings.PUBLIC_URL?.replace(/\/$/, "") ?? `http://localhost:${port}`;
publicOrigin = new URL(publicUrl);
appOrigins = [...new Set([publicOrigin.origin, `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
// Presigned URLs point at PUBLIC_URL, which a page opened as localhost must be allowed to reach.
appHeaders = appSecurityHeaders({ storageOrigins: [publicOrigin.origin], https: publicOrigin.protocol === "https:" });
if (!process.env.WOMPI_PUBLIC_KEY) {
  sandbox = await createWompiSandbox({
    dataDir,
    publicUrl,
    localUrl: `http://127.0.0.1:${port}`,
    logger: console,
  });
  Object.assign(process.env, sandbox.environment);
}

Object.assign(process.env, {
  DORSAL_RUNTIME: "local",
  AWS_REGION: region,
  TABLE_NAME: settings.TABLE_NAME,
  ORIGINALS_BUCKET: settings.ORIGINALS_BUCKET,
  DERIVED_BUCKET: settings.DERIVED_BUCKET,
  DYNAMODB_ENDPOINT: dynamo.endpoint,
  S3_ENDPOINT: publicUrl,
  DATA_DIR: dataDir,
});
const composed = compose(parseConfig(process.env), {
  dynamo,
  objects: (presigning) =>
    createInProcessObjectStore({
      s3rver: objectStore.s3rver,
      buckets: { originals: settings.ORIGINALS_BUCKET, derived: settings.DERIVED_BUCKET },
      presigning,
    }),
});
provideContainer(composed);
const container = await composed;

// s3rver's object-created events take the paths they take in AWS: an uploaded ZIP goes to the unzip
// handler (in the background, as S3 invokes its Lambda asynchronously), everything else S3 → SQS →
// starter: same message shape, same handler.
(objectStore.s3rver as unknown as EventEmitter).on("event", (notification: S3Event) => {
  // Download ZIPs are no photos: on AWS the pipeline is only told of objects under eventos/.
  if (notification.Records?.every((record) => record.s3.object.key.startsWith(downloadZipPrefix))) return;
  if (notification.Records?.some((record) => record.s3.object.key.startsWith(zipUploadPrefix))) {
    unzipHandler(notification).catch((error: unknown) => container.logger.error("ZIP import failed", error));
    return;
  }
  const message = { messageId: crypto.randomUUID(), body: JSON.stringify(notification) };
  starterHandler({ Records: [message] } as never).catch((error: unknown) =>
    container.logger.error("pipeline starter failed", error),
  );
});

const admin = await ensureAdmin(container.deps, {
  email: settings.ADMIN_EMAIL,
  ...(settings.ADMIN_PASSWORD ? { password: settings.ADMIN_PASSWORD } : {}),
});
resolveReady(container);
// ZIPs a stopped process was extracting, or whose storage event it never handled, go on now.
resumeZipBatches(container.deps, container.logger).catch((error: unknown) =>
  container.logger.error("could not resume ZIP batches", error),
);

// Payments whose event never arrived are looked up at the gateway (on AWS an EventBridge schedule does it).
setInterval(() => {
  reconcilePendingSales(container.deps)
    .then((result) => {
      if (result.settled + result.abandoned > 0) container.logger.info("pending sales reconciled", result);
    })
    .catch((error: unknown) => container.logger.error("sales reconciliation failed", error));
}, settings.PAYMENT_RECONCILE_EVERY_SECONDS * 1000).unref();

// Download ZIPs last a day or two, as the originals bucket's lifecycle rule keeps them on AWS.
const sweepZips = () =>
  sweepDownloadZips(container.deps).catch((error: unknown) =>
    container.logger.error("could not sweep old download ZIPs", error),
  );
void sweepZips();
setInterval(sweepZips, 3600_000).unref();

console.log(`Dorsal listening on ${publicUrl} (datos en ${dataDir})`);
if (sandbox) console.log(`Pagos: pasarela de pruebas (protocolo Wompi) en ${publicUrl}${sandboxPrefix}/p/`);
if (admin.generatedPassword) {
  console.log(`Administrador creado: ${settings.ADMIN_EMAIL}  contraseña: ${admin.generatedPassword}`);
  console.log("Guárdala: se muestra solo esta vez (se almacena cifrada con scrypt).");
} else if (admin.created) {
  console.log(`Administrador creado: ${settings.ADMIN_EMAIL} (contraseña de ADMIN_PASSWORD)`);
} else {
  console.log(`Administrador: ${settings.ADMIN_EMAIL} (la contraseña se mostró en el primer arranque)`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: cerrando Dorsal…`);
  server.close();
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 5_000);
  force.unref();
  sandbox?.close();
  await container.close();
  await dynamo.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
