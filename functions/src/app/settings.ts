import type {
  MigrateToCloudResponse,
  PublicSettingsDto,
  ResetSalesResponse,
  StorageLocationDto,
  StorageStatusDto,
} from "@dorsal/shared";
import type { BucketRole } from "../ports/object-store";
import type { Deps } from "./deps";

/** Public system settings (spec §3 system_settings; the purchase screen reads photoPrice). */
export const getSettings = async (deps: Deps): Promise<PublicSettingsDto> => ({
  ...(await deps.settings.get()),
  supportPhone: deps.config.SUPPORT_PHONE ?? null,
});

/**
 * 'Resetear contador de ventas' (spec §2.7): nothing is deleted; the reset time is stored and the
 * dashboard's monthly sales count from the later of it and the start of the month.
 */
export async function resetSales(deps: Deps): Promise<ResetSalesResponse> {
  const at = deps.clock.now();
  await deps.settings.resetSales(at);
  return { success: true, salesResetAt: at.toISOString() };
}

/** Where photo objects live in either bucket (storage-paths.ts); ZIPs waiting to be extracted are not photos. */
const photosPrefix = "eventos/";
/** A listing page holds up to 1000 keys: 10 pages keep the check under a second or two. */
const maxListedPages = 10;

/**
 * Storage status (spec §3, polled every 30 s by the settings screen): lists the originals and the
 * derived bucket through the object-store port, up to a page cap so a large bucket still answers
 * fast (the totals then say `truncated`). A failure is a status to show, not an error: `connected: false`.
 */
export async function storageStatus(deps: Deps): Promise<StorageStatusDto> {
  const status = {
    bucketName: deps.objects.bucketName("originals"),
    // On AWS the function's own role grants access; locally the embedded store takes a fixed key.
    credentialsType: deps.config.DORSAL_RUNTIME === "aws" ? "iam-role" : "local",
    credentialsConfigured: true,
  } as const;
  const location = storageLocation(deps);
  try {
    const originals = await countObjects(deps, "originals");
    const derived = await countObjects(deps, "derived");
    return {
      ...status,
      connected: true,
      totalFiles: originals.files,
      totalSize: originals.size,
      truncated: originals.truncated,
      error: null,
      location: {
        ...location,
        derivedFiles: derived.files,
        derivedSize: derived.size,
        derivedTruncated: derived.truncated,
      },
    };
  } catch (error) {
    return {
      ...status,
      connected: false,
      totalFiles: 0,
      totalSize: 0,
      truncated: false,
      error: error instanceof Error ? error.message : String(error),
      location: { ...location, derivedFiles: 0, derivedSize: 0, derivedTruncated: false },
    };
  }
}

async function countObjects(deps: Deps, bucket: BucketRole) {
  let files = 0;
  let size = 0;
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await deps.objects.list(bucket, photosPrefix, cursor);
    files += page.objects.length;
    for (const object of page.objects) size += object.size;
    cursor = page.cursor;
    pages += 1;
  } while (cursor && pages < maxListedPages);
  return { files, size, truncated: cursor !== undefined };
}

/** The stack `cdk deploy` creates the table and buckets in (infra/lib/dorsal-app.ts). */
const statefulStackName = "DorsalStateful";

/**
 * Where this deployment's data lives, and the `npm run migrate` command for it: locally, from this
 * data dir to the stack of a deployment; on AWS, from a local data dir into this very table and
 * these buckets (which the function knows by name, not by stack).
 */
function storageLocation(deps: Deps): Omit<StorageLocationDto, "derivedFiles" | "derivedSize" | "derivedTruncated"> {
  const { config } = deps;
  const buckets = { originals: deps.objects.bucketName("originals"), derived: deps.objects.bucketName("derived") };
  const common = { tableName: config.TABLE_NAME, buckets };
  if (config.DORSAL_RUNTIME === "local") {
    return {
      ...common,
      runtime: "local",
      dataDir: config.DATA_DIR,
      region: null,
      migrateCommand: `npm run migrate -- --from ${shellWord(config.DATA_DIR)} --to stack:${statefulStackName}`,
    };
  }
  return {
    ...common,
    runtime: "aws",
    dataDir: null,
    region: config.AWS_REGION,
    migrateCommand:
      `npm run migrate -- --from ./.data --to aws --region ${config.AWS_REGION} --table ${config.TABLE_NAME} ` +
      `--originals-bucket ${buckets.originals} --derived-bucket ${buckets.derived}`,
  };
}

/** A path as one shell word, quoted only when it needs to be. */
const shellWord = (text: string) => (/^[\w./:@-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);

/**
 * POST /api/demo/migrate-to-cloud (spec §7). Copying gigabytes of photos does not fit in an API
 * call (API Gateway gives 30 s), and a local runtime cannot copy its own live store: the migration
 * is `npm run migrate`, run where the data is (docs/spec-departures.md). The API says so, and how.
 */
export function migrateToCloud(deps: Deps): MigrateToCloudResponse {
  const { migrateCommand, runtime } = storageLocation(deps);
  return {
    migrated: false,
    message:
      runtime === "local"
        ? "La migración se hace desde la línea de comandos: detén Dorsal (Ctrl-C), despliega en AWS y ejecuta este comando en esta máquina."
        : "La migración se hace desde la línea de comandos, en la máquina que tiene la carpeta de datos local, con Dorsal detenido.",
    migrateCommand,
  };
}
