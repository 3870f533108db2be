import type { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { messages } from "@dorsal/shared";
import type { S3Event } from "aws-lambda";
import { ensureAdmin } from "../src/app/auth";
import { reconcilePendingSales } from "../src/app/sales";
import { zipUploadPrefix } from "../src/app/storage-paths";
import { resumeZipBatches } from "../src/app/zip-import";
import { type Container, getContainer } from "../src/compose";
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
import {
  type LambdaHttpHandler,
  lambdaContext,
  MalformedPathError,
  matchRoute,
  readBody,
  toApiGatewayEvent,
  writeResult,
} from "./http-bridge";
import { createMultipartGaps } from "./s3-multipart";
import { parseLocalSettings } from "./settings";
import { createStaticFiles } from "./static-files";
import { createS3rver, ensureTable, startDynalite } from "./storage";
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
const s3rver = await createS3rver(dataDir, [settings.ORIGINALS_BUCKET, settings.DERIVED_BUCKET]);
const s3Handler = s3rver.callback();
const s3MultipartGaps = createMultipartGaps(s3rver, [settings.ORIGINALS_BUCKET, settings.DERIVED_BUCKET]);
const serveStatic = createStaticFiles(path.join(repoRoot, "frontend", "dist"));
const bucketPrefixes = [settings.ORIGINALS_BUCKET, settings.DERIVED_BUCKET].map((bucket) => `/${bucket}`);
const maxBodyBytes = settings.MAX_BODY_MB * 1024 * 1024;

// Set once the port is known, unless real Wompi keys are configured.
let sandbox: WompiSandbox | undefined;

let resolveReady!: (container: Container) => void;
const ready = new Promise<Container>((resolve) => {
  resolveReady = resolve;
});

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  try {
    if (bucketPrefixes.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
      if (await s3MultipartGaps(request, response, url)) return;
      s3Handler(request, response);
      return;
    }
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
      const body = await readBody(request, maxBodyBytes);
      if (!body) {
        response.writeHead(413, { "content-type": "application/json; charset=utf-8", connection: "close" });
        response.end(JSON.stringify({ success: false, error: messages.fileTooLarge }));
        return;
      }
      const routeKey = `${match.route.method} ${match.route.path}`;
      const event = toApiGatewayEvent(request, url, body, routeKey, match.pathParameters);
      const result = await httpHandlers[match.route.handler](
        event,
        lambdaContext(`dorsal-${match.route.handler}`, settings.API_TIMEOUT_SECONDS * 1000),
      );
      writeResult(response, result);
      return;
    }
    await serveStatic(url.pathname, response);
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
const container = await getContainer();

// s3rver's object-created events take the paths they take in AWS: an uploaded ZIP goes to the unzip
// handler (in the background, as S3 invokes its Lambda asynchronously), everything else S3 → SQS →
// starter: same message shape, same handler.
(s3rver as unknown as EventEmitter).on("event", (notification: S3Event) => {
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
