/**
 * `npm run migrate -- --from ./.data --to stack:DorsalStateful`: a stopped local runtime's data to
 * AWS (docs/deploy.md, "Moving a local event to AWS"). Exit 0 when verification finds every item
 * and object the same at the target, 1 when it does not, 2 when the migration cannot start.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { DataDirBusyError } from "../data-dir-lock";
import { parseLocalSettings } from "../settings";
import { MigrationRefused, type MigrationReport, migrate } from "./migrate";
import { progressPrinter } from "./progress";
import type { TargetSpec } from "./stores";

const usage = `Uso:
  npm run migrate -- --from <DATA_DIR> --to stack:<StackName> [--region <región>]
  npm run migrate -- --from <DATA_DIR> --to aws --table <tabla> --originals-bucket <bucket> \\
      --derived-bucket <bucket> [--dynamodb-endpoint <url>] [--s3-endpoint <url>] [--region <región>]

Copia la tabla y los archivos de un Dorsal local detenido a un despliegue en AWS (el stack
DorsalStateful, con las credenciales por defecto de AWS) o a otros servicios que hablen DynamoDB y
S3 (credenciales en AWS_ACCESS_KEY_ID y AWS_SECRET_ACCESS_KEY). Se puede interrumpir y repetir:
sigue donde quedó y no duplica nada. Los nombres locales se leen como npm start (TABLE_NAME,
ORIGINALS_BUCKET, DERIVED_BUCKET, .env).`;

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const envFile = path.join(repoRoot, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const { values } = parseArgs({
  options: {
    from: { type: "string" },
    to: { type: "string" },
    region: { type: "string" },
    table: { type: "string" },
    "originals-bucket": { type: "string" },
    "derived-bucket": { type: "string" },
    "dynamodb-endpoint": { type: "string" },
    "s3-endpoint": { type: "string" },
    help: { type: "boolean" },
  },
});

function targetOf(): TargetSpec | undefined {
  const region = values.region ? { region: values.region } : {};
  if (values.to?.startsWith("stack:") && values.to.length > "stack:".length) {
    return { kind: "stack", stackName: values.to.slice("stack:".length), ...region };
  }
  const originals = values["originals-bucket"];
  const derived = values["derived-bucket"];
  if (values.to !== "aws" || !values.table || !originals || !derived) return undefined;
  return {
    kind: "endpoints",
    tableName: values.table,
    buckets: { originals, derived },
    ...region,
    ...(values["dynamodb-endpoint"] ? { dynamodbEndpoint: values["dynamodb-endpoint"] } : {}),
    ...(values["s3-endpoint"] ? { s3Endpoint: values["s3-endpoint"] } : {}),
  };
}

const target = targetOf();
if (values.help || !values.from || !target) {
  console.error(usage);
  process.exit(2);
}
const settings = parseLocalSettings({ ...process.env, DATA_DIR: values.from });
const dataDir = path.resolve(process.cwd(), settings.DATA_DIR);
const progress = progressPrinter(process.stderr);
const stop = new AbortController();
process.once("SIGINT", () => {
  console.error("\nInterrumpiendo tras el paso en curso…");
  stop.abort();
});

try {
  console.log(`Migrando ${dataDir} → ${values.to}`);
  let phase = "";
  const report = await migrate({
    dataDir,
    source: {
      tableName: settings.TABLE_NAME,
      buckets: { originals: settings.ORIGINALS_BUCKET, derived: settings.DERIVED_BUCKET },
    },
    target,
    signal: stop.signal,
    onProgress: (current, done, total, detail) => {
      if (current !== phase) {
        if (phase) progress.end();
        phase = current;
        console.error(current === "copia" ? "Copiando…" : "Verificando…");
      }
      progress.update(done, total, detail);
    },
  });
  progress.end();
  printReport(report);
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  progress.end();
  if (error instanceof MigrationRefused || error instanceof DataDirBusyError) {
    console.error(error.message);
  } else {
    console.error("La migración falló:", error instanceof Error ? error.message : error);
    console.error("Vuelve a ejecutarla: seguirá donde quedó.");
  }
  process.exitCode = 2;
}

function printReport(report: MigrationReport) {
  const row = (name: string, source: number, same: number) =>
    `  ${name.padEnd(24)} ${String(source).padStart(8)} ${String(same).padStart(8)}${source === same ? "" : "  ✗"}`;
  console.log(`\n${report.resumed ? "Migración reanudada" : "Migración"}: progreso en ${report.checkpointFile}`);
  console.log(`  ${"tabla (tipo)".padEnd(24)} ${"origen".padStart(8)} ${"iguales".padStart(8)}`);
  for (const [kind, counts] of Object.entries(report.items.kinds).sort())
    console.log(row(kind, counts.source, counts.same));
  console.log(`  ${"archivos (bucket)".padEnd(24)} ${"origen".padStart(8)} ${"iguales".padStart(8)}`);
  for (const [role, counts] of Object.entries(report.objects.buckets))
    console.log(row(role, counts.source, counts.same));
  console.log(
    `Elementos escritos: ${report.items.written}, ya iguales: ${report.items.unchanged}. ` +
      `Archivos copiados: ${report.objects.copied}, ya iguales: ${report.objects.unchanged}.`,
  );
  const skipped = Object.entries(report.items.skipped).map(([reason, count]) => `${count} ${reason}`);
  if (report.objects.skippedDownloadZips > 0) skipped.push(`${report.objects.skippedDownloadZips} ZIP de descarga`);
  if (skipped.length > 0) console.log(`No copiados a propósito: ${skipped.join(", ")}.`);
  for (const mismatch of [...report.items.mismatches, ...report.objects.mismatches]) console.log(`  ✗ ${mismatch}`);
  console.log(
    report.ok
      ? "Verificación correcta: todo está en el destino, con el mismo contenido (SHA-256)."
      : "La verificación encontró diferencias: vuelve a ejecutar la migración para copiarlas de nuevo.",
  );
}
