import { limits } from "@dorsal/shared";
import { z } from "zod";

/** Settings of the embedded runtime itself; the functions' own settings are in src/config.ts. */
export const localSettingsSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default("./.data"),
  ADMIN_EMAIL: z.email().default("admin@dorsal.local"),
  /** When unset, the first start generates a password and prints it once. */
  ADMIN_PASSWORD: z.string().min(limits.passwordMinLength).max(limits.passwordMaxLength).optional(),
  /** The origin browsers use (e.g. http://192.168.1.20:3000 for phones on the LAN); presigned URLs point at it. */
  PUBLIC_URL: z.url().optional(),
  TABLE_NAME: z.string().min(1).default("dorsal"),
  ORIGINALS_BUCKET: z.string().min(3).default("dorsal-originals"),
  DERIVED_BUCKET: z.string().min(3).default("dorsal-derived"),
  /** Largest form upload the local API reads (JSON bodies: 1 MB; API Gateway takes 10 MB for any route). */
  MAX_BODY_MB: z.coerce.number().int().min(1).max(2048).default(110),
  /**
   * Seconds a local API request may take before it is answered 503, as API Gateway answers an
   * integration past its timeout (30 s at most); the handler's work may go on.
   */
  API_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(30).default(30),
  /**
   * The per-address and per-route limits AWS applies in front of the API (functions/src/http/abuse-limits.ts),
   * mirrored for the LAN a race-day runtime serves. `off` for benchmarks and tests that load the API
   * from one address on purpose.
   */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** How often pending sales are reconciled with the payment gateway (docs/payments.md). */
  PAYMENT_RECONCILE_EVERY_SECONDS: z.coerce.number().int().min(1).default(60),
  /** How often 'avísame' messages whose quiet period is over are sent (AWS: every 5 minutes). */
  NOTIFY_SWEEP_EVERY_SECONDS: z.coerce.number().int().min(1).default(60),
});
export type LocalSettings = z.infer<typeof localSettingsSchema>;

export function parseLocalSettings(env: Record<string, string | undefined>): LocalSettings {
  const parsed = localSettingsSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
}
