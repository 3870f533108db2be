import { randomBytes, randomInt } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { api, pathFor } from "@dorsal/shared/contract";
import { z } from "zod";
import {
  checksumsMatch,
  eventChecksum,
  integritySignature,
  type WompiKeys,
  wompiKeysSchema,
} from "../src/adapters/payments/wompi";
import type { Logger } from "../src/logger";
import type { PaymentStatus } from "../src/ports/payments";

/**
 * A payment gateway on localhost that speaks Wompi's protocol, so the local runtime's checkout runs
 * through the very adapter production uses: a hosted checkout page that checks the integrity
 * signature and lets the tester approve, decline or leave the payment pending; signed
 * `transaction.updated` events to the runtime's webhook (retried on non-200, like Wompi); the
 * transactions API; and a way to settle a pending transaction later. Keys and transactions live
 * under DATA_DIR, so a restart keeps them.
 */
export const sandboxPrefix = "/sandbox/wompi";

interface SandboxTransaction {
  id: string;
  created_at: string;
  finalized_at: string | null;
  amount_in_cents: number;
  reference: string;
  customer_email: string | null;
  currency: "COP";
  payment_method_type: "CARD";
  payment_method: { type: "CARD"; extra: { name: string; brand: string; last_four: string } };
  status: PaymentStatus;
  status_message: string | null;
  redirect_url: string | null;
  customer_data: { full_name: string | null };
}

export interface WompiSandbox {
  keys: WompiKeys;
  /** The WOMPI_* settings that point the runtime's Wompi adapter at this sandbox. */
  environment: Record<string, string>;
  /** Serves a request under `/sandbox/wompi/`. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void>;
  close(): void;
}

export interface WompiSandboxOptions {
  dataDir: string;
  /** The origin browsers use: the checkout page lives there. */
  publicUrl: string;
  /** The runtime's own loopback origin: events and API calls never leave the machine. */
  localUrl: string;
  logger: Pick<Logger, "info" | "warn">;
  /** Waits between redelivery attempts of an event the webhook did not answer 200. */
  retryDelaysMs?: number[];
}

const cop = new Intl.NumberFormat("es-CO", {
  style: "currency",
  currency: "COP",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

async function loadKeys(dataDir: string): Promise<WompiKeys> {
  const file = path.join(dataDir, "keys", "wompi-sandbox.json");
  try {
    return wompiKeysSchema.parse(JSON.parse(await readFile(file, "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const random = () => randomBytes(16).toString("hex");
  const keys: WompiKeys = {
    publicKey: `pub_test_${random()}`,
    privateKey: `prv_test_${random()}`,
    integritySecret: `test_integrity_${random()}`,
    eventsSecret: `test_events_${random()}`,
  };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

const checkoutParams = z.object({
  "public-key": z.string(),
  currency: z.string(),
  "amount-in-cents": z.string().regex(/^[1-9]\d*00$/, "El valor debe ser un número entero de centavos terminado en 00"),
  reference: z.string().min(1).max(255),
  "signature:integrity": z.string().min(1, "Falta la firma de integridad"),
  "redirect-url": z.url().optional(),
  "expiration-time": z.iso.datetime().optional(),
  "customer-data:email": z.string().optional(),
  "customer-data:full-name": z.string().optional(),
});
type Checkout = z.infer<typeof checkoutParams>;

const settleRequest = z.object({
  status: z.enum(["APPROVED", "DECLINED", "ERROR", "VOIDED"]),
  /** false settles silently, as when Wompi's event never arrives: reconciliation must find it. */
  notify: z.boolean().default(true),
});

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, status: number, body: string, type: string) {
  response.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" });
  response.end(body);
}
const sendJson = (response: ServerResponse, status: number, body: unknown) =>
  send(response, status, JSON.stringify(body), "application/json");

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Wompi de pruebas</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; }
dt { font-weight: 600; }
.amount { font-size: 1.5rem; }
fieldset { border: 1px solid #ccc; border-radius: .5rem; padding: 1rem; display: flex; gap: .75rem; flex-wrap: wrap; }
button { font-size: 1rem; padding: .6rem 1.2rem; border-radius: .4rem; border: 1px solid #333; cursor: pointer; }
button[value="APPROVED"] { background: #1b7f3b; color: #fff; }
button[value="DECLINED"] { background: #b3261e; color: #fff; }
.note { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export async function createWompiSandbox(options: WompiSandboxOptions): Promise<WompiSandbox> {
  const keys = await loadKeys(options.dataDir);
  const retryDelaysMs = options.retryDelaysMs ?? [2_000, 10_000, 60_000];
  const stateFile = path.join(options.dataDir, "wompi-sandbox", "transactions.json");
  const transactions = new Map<string, SandboxTransaction>();
  try {
    for (const transaction of JSON.parse(await readFile(stateFile, "utf8")) as SandboxTransaction[]) {
      transactions.set(transaction.id, transaction);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const timers = new Set<NodeJS.Timeout>();

  // One write at a time, each replacing the file whole (write then rename), so a kill never leaves half a file.
  let saving = Promise.resolve();
  const save = () => {
    saving = saving.then(async () => {
      await mkdir(path.dirname(stateFile), { recursive: true });
      await writeFile(`${stateFile}.tmp`, JSON.stringify([...transactions.values()]));
      await rename(`${stateFile}.tmp`, stateFile);
    });
    return saving;
  };

  /** What makes a checkout valid, in Wompi's terms; the message explains a refusal in Spanish. */
  function verifyCheckout(params: URLSearchParams): { checkout: Checkout } | { error: string } {
    const parsed = checkoutParams.safeParse(Object.fromEntries(params));
    if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Parámetros de pago inválidos" };
    const checkout = parsed.data;
    if (checkout["public-key"] !== keys.publicKey) return { error: "La llave pública no corresponde a este comercio" };
    if (checkout.currency !== "COP") return { error: "Solo se aceptan pagos en pesos colombianos (COP)" };
    const expected = integritySignature(
      {
        reference: checkout.reference,
        amountInCents: Number(checkout["amount-in-cents"]),
        currency: checkout.currency,
        ...(checkout["expiration-time"] ? { expirationTime: checkout["expiration-time"] } : {}),
      },
      keys.integritySecret,
    );
    if (!checksumsMatch(expected, checkout["signature:integrity"])) {
      return { error: "La firma de integridad no es válida: el pago fue alterado o mal firmado" };
    }
    if (checkout["expiration-time"] && Date.parse(checkout["expiration-time"]) <= Date.now()) {
      return { error: "Este link de pago expiró" };
    }
    return { checkout };
  }

  function checkoutPage(params: URLSearchParams, checkout: Checkout): string {
    const hidden = [...params]
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join("\n");
    const buyer = [checkout["customer-data:full-name"], checkout["customer-data:email"]].filter(Boolean).join(" · ");
    return page(
      "Pagar",
      `<h1>Pago de prueba</h1>
<p class="note">Pasarela local de Dorsal: habla el protocolo de Wompi y no mueve dinero real.</p>
<dl>
<dt>Valor</dt><dd class="amount">${escapeHtml(cop.format(Number(checkout["amount-in-cents"]) / 100))}</dd>
<dt>Referencia</dt><dd>${escapeHtml(checkout.reference)}</dd>
${buyer ? `<dt>Comprador</dt><dd>${escapeHtml(buyer)}</dd>` : ""}
</dl>
<form method="post" action="${sandboxPrefix}/p/">
${hidden}
<fieldset>
<legend>Elige el resultado del pago</legend>
<button type="submit" name="outcome" value="APPROVED">Aprobar</button>
<button type="submit" name="outcome" value="DECLINED">Rechazar</button>
<button type="submit" name="outcome" value="PENDING">Pendiente</button>
</fieldset>
</form>`,
    );
  }

  const errorPage = (response: ServerResponse, status: number, message: string) =>
    send(
      response,
      status,
      page("Error", `<h1>No se puede procesar el pago</h1>\n<p role="alert">${escapeHtml(message)}</p>`),
      "text/html",
    );

  /** Wompi's event for a transaction, signed with the events secret (the property list travels with it). */
  function signedEvent(transaction: SandboxTransaction) {
    const unsigned = {
      event: "transaction.updated",
      data: { transaction },
      environment: "test",
      signature: {
        properties: ["transaction.id", "transaction.status", "transaction.amount_in_cents"],
        checksum: "",
      },
      timestamp: Math.floor(Date.now() / 1000),
      sent_at: new Date().toISOString(),
    };
    const checksum = eventChecksum(unsigned, keys.eventsSecret) ?? "";
    return { ...unsigned, signature: { ...unsigned.signature, checksum } };
  }

  /**
   * Sends the event; the first attempt is awaited (so the buyer's redirect normally finds the sale
   * settled), later ones run in the background after the configured waits, like Wompi's retries.
   */
  async function notify(transaction: SandboxTransaction): Promise<void> {
    const event = signedEvent(transaction);
    const attempt = async (index: number): Promise<void> => {
      let status = 0;
      try {
        const response = await fetch(`${options.localUrl}${pathFor(api.sales.paymentEvent)}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-event-checksum": event.signature.checksum.toUpperCase() },
          body: JSON.stringify(event),
          signal: AbortSignal.timeout(10_000),
        });
        status = response.status;
        await response.body?.cancel();
      } catch (error) {
        options.logger.warn("sandbox: event delivery failed", { transactionId: transaction.id, error });
      }
      if (status === 200) return;
      const delay = retryDelaysMs[index];
      if (delay === undefined) {
        options.logger.warn("sandbox: event given up", { transactionId: transaction.id, status });
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        void attempt(index + 1);
      }, delay);
      timer.unref();
      timers.add(timer);
    };
    await attempt(0);
  }

  function newTransaction(checkout: Checkout, status: PaymentStatus): SandboxTransaction {
    const now = new Date();
    return {
      // Wompi's shape: merchant-ish prefix, creation time, a random suffix.
      id: `${randomInt(10_000, 99_999)}-${Math.floor(now.getTime() / 1000)}-${randomInt(10_000, 99_999)}`,
      created_at: now.toISOString(),
      finalized_at: status === "PENDING" ? null : now.toISOString(),
      amount_in_cents: Number(checkout["amount-in-cents"]),
      reference: checkout.reference,
      customer_email: checkout["customer-data:email"] ?? null,
      currency: "COP",
      payment_method_type: "CARD",
      payment_method: { type: "CARD", extra: { name: "VISA-4242", brand: "VISA", last_four: "4242" } },
      status,
      status_message: status === "DECLINED" ? "Transacción rechazada (sandbox)" : null,
      redirect_url: checkout["redirect-url"] ?? null,
      customer_data: { full_name: checkout["customer-data:full-name"] ?? null },
    };
  }

  async function pay(request: IncomingMessage, response: ServerResponse) {
    const form = new URLSearchParams(await readText(request));
    const outcome = form.get("outcome");
    form.delete("outcome");
    const verified = verifyCheckout(form);
    if ("error" in verified) return errorPage(response, 400, verified.error);
    if (outcome !== "APPROVED" && outcome !== "DECLINED" && outcome !== "PENDING") {
      return errorPage(response, 400, "Elige Aprobar, Rechazar o Pendiente");
    }
    const transaction = newTransaction(verified.checkout, outcome);
    transactions.set(transaction.id, transaction);
    await save();
    // Wompi notifies final states; a pending one is told when it settles.
    if (outcome !== "PENDING") await notify(transaction);
    const redirect = verified.checkout["redirect-url"];
    if (!redirect) {
      return send(
        response,
        200,
        page("Pago", `<h1>Transacción ${escapeHtml(transaction.id)}: ${outcome}</h1>`),
        "text/html",
      );
    }
    const back = new URL(redirect);
    back.searchParams.set("id", transaction.id);
    response.writeHead(302, { location: back.toString(), "cache-control": "no-store" });
    response.end();
  }

  async function settle(request: IncomingMessage, response: ServerResponse, id: string) {
    const transaction = transactions.get(id);
    if (!transaction)
      return sendJson(response, 404, { error: { type: "NOT_FOUND_ERROR", reason: "Transacción no encontrada" } });
    let body: unknown;
    try {
      body = JSON.parse((await readText(request)) || "{}");
    } catch {
      body = undefined;
    }
    const parsed = settleRequest.safeParse(body);
    if (!parsed.success) return sendJson(response, 422, { error: { type: "INPUT_VALIDATION_ERROR" } });
    const { status, notify: shouldNotify } = parsed.data;
    const allowed = status === "VOIDED" ? transaction.status === "APPROVED" : transaction.status === "PENDING";
    if (!allowed) return sendJson(response, 409, { error: { type: "INVALID_STATE", status: transaction.status } });
    transaction.status = status;
    transaction.finalized_at = new Date().toISOString();
    await save();
    if (shouldNotify) await notify(transaction);
    sendJson(response, 200, { data: transaction });
  }

  return {
    keys,
    environment: {
      WOMPI_PUBLIC_KEY: keys.publicKey,
      WOMPI_PRIVATE_KEY: keys.privateKey,
      WOMPI_INTEGRITY_SECRET: keys.integritySecret,
      WOMPI_EVENTS_SECRET: keys.eventsSecret,
      WOMPI_CHECKOUT_URL: `${options.publicUrl}${sandboxPrefix}/p/`,
      WOMPI_API_URL: `${options.localUrl}${sandboxPrefix}/v1`,
    },

    async handle(request, response, url) {
      const route = url.pathname.slice(sandboxPrefix.length);
      const method = request.method ?? "GET";
      if (route === "/p/" || route === "/p") {
        if (method === "POST") return pay(request, response);
        const verified = verifyCheckout(url.searchParams);
        if ("error" in verified) return errorPage(response, 400, verified.error);
        return send(response, 200, checkoutPage(url.searchParams, verified.checkout), "text/html");
      }
      if (!route.startsWith("/v1/")) return sendJson(response, 404, { error: { type: "NOT_FOUND_ERROR" } });
      if (request.headers.authorization !== `Bearer ${keys.privateKey}`) {
        return sendJson(response, 401, {
          error: { type: "INVALID_ACCESS_TOKEN", reason: "Se requiere la llave privada" },
        });
      }
      const one = /^\/v1\/transactions\/([^/]+)$/.exec(route);
      const settling = /^\/v1\/transactions\/([^/]+)\/settle$/.exec(route);
      if (method === "GET" && route === "/v1/transactions") {
        const reference = url.searchParams.get("reference");
        return sendJson(response, 200, {
          data: [...transactions.values()].filter((transaction) => transaction.reference === reference),
        });
      }
      if (method === "GET" && one?.[1]) {
        const transaction = transactions.get(decodeURIComponent(one[1]));
        return transaction
          ? sendJson(response, 200, { data: transaction })
          : sendJson(response, 404, { error: { type: "NOT_FOUND_ERROR", reason: "Transacción no encontrada" } });
      }
      if (method === "POST" && settling?.[1]) return settle(request, response, decodeURIComponent(settling[1]));
      sendJson(response, 404, { error: { type: "NOT_FOUND_ERROR" } });
    },

    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
