import { existsSync } from "node:fs";
import path from "node:path";
import { startRuntime } from "./runtime";

/** `npm start`: the embedded runtime on this process's environment (and .env), until a signal. */
const envFile = path.resolve(import.meta.dirname, "../..", ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
// Lambda runs Node 22; locally Node 20 is supported on purpose, so the SDK need not say so on every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const runtime = await startRuntime(process.env);
const { admin } = runtime;
console.log(`Dorsal listening on ${runtime.url} (datos en ${runtime.dataDir})`);
if (runtime.paymentSandboxUrl)
  console.log(`Pagos: pasarela de pruebas (protocolo Wompi) en ${runtime.paymentSandboxUrl}`);
if (admin.generatedPassword) {
  console.log(`Administrador creado: ${admin.email}  contraseña: ${admin.generatedPassword}`);
  console.log("Guárdala: se muestra solo esta vez (se almacena cifrada con scrypt).");
} else if (admin.created) {
  console.log(`Administrador creado: ${admin.email} (contraseña de ADMIN_PASSWORD)`);
} else {
  console.log(`Administrador: ${admin.email} (la contraseña se mostró en el primer arranque)`);
}

const shutdown = (signal: string) => {
  console.log(`${signal}: cerrando Dorsal…`);
  void runtime.close().then(() => process.exit(0));
};
process.once("SIGINT", () => shutdown("SIGINT"));
process.once("SIGTERM", () => shutdown("SIGTERM"));
