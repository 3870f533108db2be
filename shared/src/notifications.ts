import { z } from "zod";
import { idParam } from "./api";
import { customerEmail, dorsalNumber } from "./sales";

/**
 * 'Avísame cuando estén mis fotos': an athlete asks to be emailed once the photos of their bib are
 * searchable (docs/features.md#avísame-cuando-estén-mis-fotos). A subpath of its own
 * (`@dorsal/shared/notifications`): only the form, loaded when an athlete opens it, needs it.
 */

/**
 * The consent the athlete ticks, word for word, under a version: the subscription records which
 * text it was given under. A new wording gets a new version; the old ones stay here, as the record.
 */
export const notifyConsentTexts = {
  "2026-11-27": (eventName: string, bib: string) =>
    `Acepto que Dorsal guarde mi correo, la carrera (${eventName}) y mi dorsal (${bib}) para escribirme cuando ` +
    "haya fotos de mi dorsal. Solo para eso; puedo darme de baja en cualquier momento con el enlace de cada correo.",
} as const;
export type NotifyConsentVersion = keyof typeof notifyConsentTexts;
export const notifyConsentVersion: NotifyConsentVersion = "2026-11-27";

export const notifyMessages = {
  consentRequired: "Marca la casilla para aceptar que guardemos tu correo",
  /** Said whether or not the address asked before, and whether or not a message went out: no enumeration. */
  requested:
    "Si el correo es válido, te enviamos un mensaje para confirmar. Abre el enlace del correo: solo entonces te avisaremos.",
  confirmed: "Listo: te escribiremos cuando haya fotos de tu dorsal.",
  unsubscribed: "Listo: no te escribiremos más sobre este dorsal.",
  /** Unknown, expired and spent links alike: which one tells nothing to whoever holds it. */
  linkInvalid: "El enlace no es válido o ya venció. Si aún quieres el aviso, pídelo de nuevo en la búsqueda.",
} as const;

/** POST /api/notifications: an athlete's request; only a ticked box passes. */
export const notifyRequest = z.object({
  eventId: idParam,
  bib: dorsalNumber,
  email: customerEmail.transform((email) => email.toLowerCase()),
  consent: z.literal(true, { error: notifyMessages.consentRequired }),
});

/** The token of an emailed link: the event, the bib, the subscription and a secret, apart by dots. */
export const notifyToken = z
  .string()
  .trim()
  .max(200)
  .regex(/^\d+\.[A-Za-z0-9]+\.[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/, notifyMessages.linkInvalid);
export const notifyTokenRequest = z.object({ token: notifyToken });

export interface NotifyAnswer {
  message: string;
}
