import { describe, expect, it } from "vitest";
import { codeChatMessage, formatColombianDay, mailTexts, parseMailbox } from "./mail-texts";

const code = {
  code: "AB12CD34",
  dorsalNumber: "5173",
  eventId: 7,
  eventName: "Media Maratón",
  // 22:00 of the 24th in Bogotá, already the 25th in UTC.
  expiresAt: "2026-12-25T03:00:00.000Z",
  maxDownloads: 5,
};

describe("codeChatMessage", () => {
  it("carries the code, the bib, the valid-until day in Colombia and the permitted downloads", () => {
    const message = codeChatMessage(code, "https://fotos.example.co");
    expect(message).toContain("Tu código de descarga: AB12CD34");
    expect(message).toContain("Dorsal: 5173");
    expect(message).toContain("Válido hasta: 24 de diciembre de 2026");
    expect(message).toContain("Descargas permitidas por foto: 5");
    expect(message).toContain("https://fotos.example.co/search");
  });

  it("is the body of the code's email", () => {
    expect(mailTexts.downloadCode(code, "https://fotos.example.co")).toEqual({
      subject: "Tu código de descarga para las fotos de Media Maratón",
      paragraphs: [codeChatMessage(code, "https://fotos.example.co"), "— Dorsal"],
    });
  });
});

describe("formatColombianDay", () => {
  it("shows unexpected values as they came", () => {
    expect(formatColombianDay("pronto")).toBe("pronto");
  });
});

describe("the applicants' emails", () => {
  it("give the admin's notes only when there are some", () => {
    const withNotes = mailTexts.applicationRejected({ fullName: "Pedro Ruiz", adminNotes: "Falta portafolio." });
    const without = mailTexts.applicationRejected({ fullName: "Pedro Ruiz", adminNotes: null });
    expect(withNotes.paragraphs).toContain("Notas del organizador:\nFalta portafolio.");
    expect(without.paragraphs.join("\n")).not.toContain("Notas");
  });
});

describe("parseMailbox", () => {
  it("reads MAIL_FROM as an address, or a display name and an address", () => {
    expect(parseMailbox("fotos@example.co")).toEqual({ name: null, address: "fotos@example.co" });
    expect(parseMailbox(" Fotos Medellín <fotos@example.co> ")).toEqual({
      name: "Fotos Medellín",
      address: "fotos@example.co",
    });
    for (const wrong of ["fotos", "fotos @example.co", "Fotos <fotos@example>", 'Fotos "x" <a@b.co>']) {
      expect(parseMailbox(wrong), wrong).toBeNull();
    }
  });
});
