import { createEventRequest } from "@dorsal/shared/staff-requests";
import { describe, expect, it } from "vitest";
import { createEvent } from "../app/events";
import { storePricingInDollars } from "../testing/legacy-pricing";
import { memoryContainer } from "../testing/memory-container";
import { eventCheck } from "./run";

describe("the preflight's event check", () => {
  it("warns of an event priced in another currency before pesos-only, which checkout refuses to sell", async () => {
    const { deps } = await memoryContainer();
    const event = await createEvent(deps, createEventRequest.parse({ name: "Carrera Vieja", date: "2026-12-06" }));

    const inPesos = await eventCheck(deps, event.id);
    await storePricingInDollars(deps.table, event.id);
    const inDollars = await eventCheck(deps, event.id);

    const photos = "«Carrera Vieja»: 0 fotos, 0 procesadas, 0 fallidas";
    expect(inPesos).toEqual({ status: "GREEN", detail: `${photos}; precio $ 10.000 COP (el predeterminado)` });
    expect(inDollars).toEqual({
      status: "YELLOW",
      detail: `${photos}; precio 5 USD; la pasarela de pagos no cobra en USD: guarda sus precios en pesos en Precios`,
    });
  });
});
