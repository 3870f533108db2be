import { defaultEventPricing, type EventDto, type EventPricingDto, pricingMessages } from "@dorsal/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiClient } from "../support/api";
import { sharedDorsal } from "../support/server";

type ErrorBody = { success: false; error: string; details?: { path: string; message: string }[] };

/** Event pricing through the embedded runtime: public defaults, admin-only saves, spec §5's rules. */
describe("event pricing", () => {
  const dorsal = sharedDorsal();
  let admin: ReturnType<typeof apiClient>;
  let visitor: ReturnType<typeof apiClient>;
  let event: EventDto;
  const custom = {
    basePrice: 15000,
    currency: "COP",
    tier2Photos: 2,
    tier2Price: 12000,
    tier3Photos: 4,
    tier3Price: 10000,
    tier4Photos: 8,
    tier4Price: 10000,
    volumeDiscountEnabled: false,
    downloadValidityDays: 30,
  };

  beforeAll(async () => {
    admin = apiClient(dorsal.url, await adminToken(dorsal));
    visitor = apiClient(dorsal.url);
    event = (await admin.post<EventDto>("/api/events", { name: "Media Maratón de Bogotá", date: "2026-07-26" })).body;
  });
  it("gives anyone spec §3's defaults for an event that never saved its pricing", async () => {
    const pricing = await visitor.get<EventPricingDto>(`/api/events/${event.id}/pricing`);
    expect(pricing.status).toBe(200);
    expect(pricing.body).toEqual({ ...defaultEventPricing, eventId: event.id, configured: false, updatedAt: null });
    expect((await visitor.get(`/api/events/9999/pricing`)).status).toBe(404);
  });

  it("saves an admin's pricing and serves it publicly", async () => {
    const saved = await admin.post<EventPricingDto>(`/api/events/${event.id}/pricing`, custom);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ...custom, eventId: event.id, configured: true });
    expect(Date.parse(saved.body.updatedAt ?? "")).not.toBeNaN();
    expect((await visitor.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body).toEqual(saved.body);
  });

  it("refuses a broken tier ladder and spec §5 violations with a message on each field, keeping what was saved", async () => {
    const broken = await admin.post<ErrorBody>(`/api/events/${event.id}/pricing`, {
      ...custom,
      basePrice: 15500,
      tier2Price: 16000,
      tier3Photos: 2,
      tier4Price: 11000,
      downloadValidityDays: 400,
    });
    expect(broken.status).toBe(400);
    expect(broken.body.details).toEqual(
      expect.arrayContaining([
        { path: "basePrice", message: pricingMessages.priceStep },
        { path: "downloadValidityDays", message: pricingMessages.validityDays },
        { path: "tier3Photos", message: pricingMessages.tierPhotosIncreasing },
        { path: "tier2Price", message: pricingMessages.tierPriceAboveBase },
        { path: "tier4Price", message: pricingMessages.tierPriceAbovePrevious },
      ]),
    );

    const tooFewPhotos = await admin.post<ErrorBody>(`/api/events/${event.id}/pricing`, {
      ...custom,
      tier2Photos: 1,
      tier4Photos: 4,
      tier2Price: 500,
    });
    expect(tooFewPhotos.status).toBe(400);
    expect(tooFewPhotos.body.details).toEqual(
      expect.arrayContaining([
        { path: "tier2Photos", message: "El descuento 1 debe empezar en al menos 2 fotos" },
        { path: "tier4Photos", message: "El descuento 3 debe empezar en al menos 5 fotos" },
        { path: "tier2Price", message: pricingMessages.priceMin },
      ]),
    );
    // Pesos only: the payment gateway charges nothing else.
    for (const currency of ["USD", "EUR"]) {
      const otherCurrency = await admin.post<ErrorBody>(`/api/events/${event.id}/pricing`, { ...custom, currency });
      expect(otherCurrency.status).toBe(400);
      expect(otherCurrency.body.error).toBe(pricingMessages.currency);
      expect(otherCurrency.body.details).toEqual([{ path: "currency", message: pricingMessages.currency }]);
    }

    expect((await visitor.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body).toMatchObject(custom);
    expect((await admin.post(`/api/events/9999/pricing`, custom)).status).toBe(404);
  });

  it("lets only admins save pricing", async () => {
    expect((await visitor.post(`/api/events/${event.id}/pricing`, custom)).status).toBe(401);

    const created = await admin.post("/api/users", {
      name: "Fotógrafo de Precios",
      email: "precios@dorsal.test",
      password: "secreto-123",
      role: "photographer",
      assignedEventId: event.id,
    });
    expect(created.status).toBe(201);
    const login = await visitor.post<{ token: string }>("/api/auth/login", {
      email: "precios@dorsal.test",
      password: "secreto-123",
    });
    const photographer = apiClient(dorsal.url, login.body.token);
    const refused = await photographer.post<ErrorBody>(`/api/events/${event.id}/pricing`, {
      ...custom,
      basePrice: 1000,
    });
    expect(refused.status).toBe(403);
    expect((await visitor.get<EventPricingDto>(`/api/events/${event.id}/pricing`)).body.basePrice).toBe(15000);
  });
});
