import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWompiGateway } from "../src/adapters/payments/wompi";
import { createWompiSandbox, sandboxPrefix, type WompiSandbox } from "./wompi-sandbox";

/** The sandbox against the Wompi adapter itself, with a webhook that fails once. */
describe("Wompi sandbox", () => {
  let dataDir: string;
  let sandbox: WompiSandbox;
  let server: ReturnType<typeof createServer>;
  let base = "";
  const received: { body: unknown; header: string | undefined; answered: number }[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "wompi-sandbox-"));
    server = createServer(async (request, response) => {
      const url = new URL(request.url ?? "/", "http://localhost");
      if (url.pathname.startsWith(`${sandboxPrefix}/`)) return sandbox.handle(request, response, url);
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      // The first delivery fails, as a webhook that is down would.
      const answered = received.length === 0 ? 500 : 200;
      received.push({
        body: JSON.parse(Buffer.concat(chunks).toString()),
        header: request.headers["x-event-checksum"] as string | undefined,
        answered,
      });
      response.writeHead(answered).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sandbox = await createWompiSandbox({
      dataDir,
      publicUrl: base,
      localUrl: base,
      logger: { info: () => undefined, warn: () => undefined },
      retryDelaysMs: [50],
    });
  });
  afterAll(async () => {
    sandbox.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it("takes a signed checkout, sends a verifiable event until it is answered 200, and redirects with the id", async () => {
    const gateway = createWompiGateway({
      checkoutUrl: sandbox.environment.WOMPI_CHECKOUT_URL,
      apiUrl: sandbox.environment.WOMPI_API_URL,
      keys: async () => sandbox.keys,
    });
    const checkout = new URL(
      await gateway.checkoutUrl({
        reference: "DOR-test",
        amountInCents: 1000000,
        currency: "COP",
        redirectUrl: "https://tienda.example/download?token=abc",
        customerEmail: "ana@example.co",
        customerName: "Ana Gómez",
        expirationTime: new Date(Date.now() + 60_000),
      }),
    );
    const page = await fetch(checkout);
    expect(await page.text()).toContain("$\u00a010.000");

    const form = new URLSearchParams(checkout.searchParams);
    form.set("outcome", "APPROVED");
    const paid = await fetch(`${base}${sandboxPrefix}/p/`, { method: "POST", body: form, redirect: "manual" });
    expect(paid.status).toBe(302);
    const location = new URL(paid.headers.get("location") ?? "");
    const id = location.searchParams.get("id") ?? "";
    expect(location.searchParams.get("token")).toBe("abc");

    await expect.poll(() => received.length, { timeout: 2_000 }).toBe(2);
    expect(received.map((delivery) => delivery.answered)).toEqual([500, 200]);
    for (const delivery of received) {
      expect(await gateway.verifyEvent(delivery.body, new Date(), delivery.header)).toMatchObject({
        id,
        reference: "DOR-test",
        amountInCents: 1000000,
        status: "APPROVED",
      });
    }
    expect(await gateway.lookup(id)).toMatchObject({ id, status: "APPROVED" });
    expect(await gateway.lookupByReference("DOR-test")).toHaveLength(1);
  });
});
