import { z } from "zod";
import type { EventDto, PhotoDto } from "./api";
import { idParam, newPassword } from "./api";
import { bibTextMessage, isBibText, normaliseBib } from "./bib-format";
import type { MailOutcome } from "./mail";

/**
 * The athlete's side (spec §2.6, §3 sales and download_codes, §5, §7, §9): browsing by bib, the
 * cart and its price, checkout, download links and download codes. Server and browser share these
 * schemas, so a rule and its Spanish message are written once.
 */

export const salesMessages = {
  linkOnlyForPaid: "Solo una venta pagada y vigente tiene enlace de descarga",
  saleNotFound: "Venta no encontrada",
  nameRequired: "El nombre es obligatorio",
  nameTwoWords: "Debe incluir nombre y apellido",
  nameWordLength: "Nombre y apellido deben tener al menos 2 caracteres cada uno",
  emailRequired: "El correo electrónico es obligatorio",
  emailNeedsAt: "El correo debe contener el símbolo @",
  emailInvalid: "El formato del correo electrónico no es válido",
  noValidDorsal: "No se ha especificado un número de dorsal válido.",
  cartEmpty: "Elige al menos una foto",
  cartTooLarge: "Puedes comprar hasta 200 fotos por compra",
  photosNotOfEvent: "Alguna foto elegida no pertenece a este evento o ya no está disponible",
  eventIsFree: "Las fotos de este evento son gratis: descárgalas desde Fotos gratis",
  eventNotFree: "Las fotos de este evento no son gratis",
  currencyNotSupported: "La pasarela de pagos solo acepta pesos colombianos (COP)",
  priceChanged: "El precio de tu compra cambió. Revisa el carrito antes de pagar.",
  gatewayUnavailable: "Error: No se pudo conectar con la pasarela de pagos.",
  tokenRequired: "Token de descarga requerido",
  tokenInvalid: "El enlace de descarga no es válido",
  downloadInfoFailed: "Error al obtener información de descarga",
  downloadExpired: "Este enlace de descarga expiró. Contacta al organizador del evento para obtener uno nuevo.",
  downloadLimit: "Has alcanzado el límite de descargas para esta compra.",
  paymentPending: "Tu pago está pendiente de confirmación. Esta página se actualizará sola.",
  paymentDeclined: "El pago fue rechazado o anulado: esta compra no permite descargas.",
  /** Shown with a declined or failed payment when the gateway gave no reason of its own. */
  paymentDeclinedReason: "El banco o la pasarela de pagos no aprobó la transacción.",
  paymentErrorReason: "La pasarela de pagos no pudo procesar la transacción.",
  retryNotAllowed: "Solo un pago rechazado se puede reintentar",
  zipFailed: "No se pudo preparar el ZIP. Por favor intenta de nuevo.",
  photoDownloadFailed: "Error al descargar la foto. Por favor intenta de nuevo.",
  codeRequired: "Por favor ingresa un código de descarga",
  codeInvalid: "Código de descarga inválido",
  codeExpired: "Este código de descarga expiró",
  codeLimit: "Este código ya alcanzó su límite de descargas",
  codeValidateFailed: "Error al validar el código. Por favor intenta de nuevo",
  codeFieldsRequired: "Por favor selecciona un evento e ingresa el número de dorsal",
  codeDorsalNumeric: bibTextMessage,
  codeEventNotEligible: "Solo se generan códigos para eventos activos sin fotos gratis",
  codeGenerateFailed: "No se pudo generar el código de descarga",
  codeBibWithoutPhotos: (bib: string) => `El dorsal ${bib} no tiene fotos en este evento`,
  webhookRefused: "Evento de pago no válido",
  athleteOnly: "Solo los deportistas pueden ver todas las fotos de este evento",
  eventNeedsAthleteLogin: "Este evento no ofrece descarga libre a deportistas registrados",
} as const;

/** Spec §5: customer name, at least two words of at least 2 characters each. */
export const customerName = z
  .string({ error: salesMessages.nameRequired })
  .trim()
  .min(1, salesMessages.nameRequired)
  .max(120)
  .refine((name) => name.split(/\s+/).length >= 2, salesMessages.nameTwoWords)
  .refine((name) => name.split(/\s+/).every((word) => word.length >= 2), salesMessages.nameWordLength);

/** Spec §5: customer email, checked in the spec's order so the first failing rule is the message shown. */
export const customerEmail = z
  .string({ error: salesMessages.emailRequired })
  .trim()
  .min(1, salesMessages.emailRequired)
  .max(254)
  .refine((email) => email.includes("@"), salesMessages.emailNeedsAt)
  .refine((email) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email), salesMessages.emailInvalid);

export const dorsalNumber = z.string().trim().refine(isBibText, salesMessages.noValidDorsal).transform(normaliseBib);

const maxPhotosPerSale = 200;

/** A photo id as the cart and the download routes' paths carry it. */
export const downloadPhotoId = z.string().min(1).max(64);

const photoIds = z
  .array(downloadPhotoId)
  .min(1, salesMessages.cartEmpty)
  .max(maxPhotosPerSale, salesMessages.cartTooLarge)
  .transform((ids) => [...new Set(ids)]);

/** POST /api/sales/quote: what the cart costs, computed by the server (the purchase screen shows this). */
export const cartQuoteRequest = z.object({
  eventId: idParam,
  photoIds,
  /** The bib the photos were found under; the all-photos-of-the-bib bundle needs it. */
  dorsalNumber: dorsalNumber.optional(),
});
export type CartQuoteRequest = z.input<typeof cartQuoteRequest>;

/** Which rule priced the cart (docs/features.md, "Prices"). */
export type CartPriceRule = "eventPricing" | "bundleAllOfBib" | "bundle5" | "bundle3" | "perPhoto";

export interface CartQuote {
  eventId: number;
  count: number;
  /** Whole pesos. */
  total: number;
  /** Per photo when the rule prices per photo; otherwise total / count, rounded. */
  unitPrice: number;
  /** What `count` photos cost at the plain per-photo price, so the screen can show the saving. */
  listTotal: number;
  rule: CartPriceRule;
  currency: "COP";
}

/**
 * POST /api/sales/create (spec §7: customerEmail, customerName, photoIds, amount). `amount` is what
 * the buyer was shown; the server charges its own figure and refuses the sale (409) if they differ,
 * so nobody pays a price they did not see.
 */
export const createSaleRequest = z.object({
  eventId: idParam,
  dorsalNumber: dorsalNumber.optional(),
  photoIds,
  customerName,
  customerEmail,
  amount: z.number().int().nonnegative().optional(),
});
export type CreateSaleRequest = z.input<typeof createSaleRequest>;

export interface CreateSaleResponse {
  saleId: string;
  reference: string;
  amount: number;
  /** The payment provider's hosted checkout; the browser goes there. */
  paymentUrl: string;
}

const saleStatuses = ["pending", "paid", "declined", "voided", "error"] as const;
export type SaleStatus = (typeof saleStatuses)[number];

/** One photo the buyer may download: the clean original behind `downloadUrl`. */
export interface DownloadPhoto {
  id: string;
  filename: string;
  originalFilename: string;
  thumbnailUrl: string | null;
  /** A clean web-size copy for the preview dialog. */
  webUrl: string | null;
  /** Counts one download of this photo and answers 302 to a short-lived signed URL of the original. */
  downloadUrl: string;
  /** Downloads left for this photo. */
  remainingDownloads: number;
}

/**
 * GET /api/sales/download/{token} (spec §3 download info: photos, expiresAt, remainingDownloads).
 * Reading it never consumes a download. Each photo may be downloaded `maxDownloads` times (a ZIP
 * counts one download of each photo in it); `remainingDownloads` is the fewest left over the
 * photos, and downloads end once no photo has any left.
 */
export interface DownloadInfo {
  status: SaleStatus;
  eventId: number;
  eventName: string;
  dorsalNumber: string | null;
  customerName: string;
  customerEmail: string;
  /** What the buyer's bank statement and the gateway know the payment by (DOR-…). */
  reference: string;
  /** Whole pesos. */
  amount: number;
  currency: "COP";
  paidAt: string | null;
  /** The gateway's payment method type (CARD, NEQUI, PSE…), once a transaction settled the sale. */
  paymentMethod: string | null;
  /** The gateway's reason for a declined or failed payment, when it gave one. */
  statusMessage: string | null;
  /** The photos bought (or to buy again after a decline): the cart, in every state. */
  photoIds: string[];
  /** Listed only for a paid sale. */
  photos: DownloadPhoto[];
  expiresAt: string | null;
  maxDownloads: number;
  remainingDownloads: number;
}

/** A sale as the admin's export shows it: everything stored but the token's hash. */
export interface AdminSaleDto {
  id: string;
  /** What the payment provider knows the sale by; unique because it contains the sale id. */
  reference: string;
  eventId: number;
  dorsalNumber: string | null;
  photoIds: string[];
  /** Whole pesos. */
  amount: number;
  currency: "COP";
  customerEmail: string;
  customerName: string;
  status: SaleStatus;
  maxDownloads: number;
  /** Days the link works, counted from `paidAt`. */
  validityDays: number;
  createdAt: string;
  /** After this the provider's checkout refuses the payment. */
  checkoutExpiresAt: string;
  paidAt: string | null;
  expiresAt: string | null;
  transactionId: string | null;
  paymentMethod: string | null;
  /** The gateway's reason for a declined or failed payment. */
  statusMessage: string | null;
  updatedAt: string;
  /**
   * A paid sale's downloads left: each photo may be downloaded `maxDownloads` times, so this is
   * the fewest left over its photos; null for a sale that was never paid.
   */
  downloadsLeft: number | null;
}

/**
 * POST /api/admin/sales/{saleId}/link: a new download link for a paid sale; every older one stops
 * working. With `sendEmail`, the link is also emailed to the buyer.
 */
export const newSaleLinkRequest = z.object({ sendEmail: z.boolean().default(false) });
export type NewSaleLinkRequest = z.input<typeof newSaleLinkRequest>;

export interface AdminSaleLink {
  downloadUrl: string;
  expiresAt: string | null;
  /** The email to the buyer, when one was asked for. */
  mail: MailOutcome | null;
}

/** GET /api/admin/sales?eventId=: an event's sales, oldest first, a page at a time (export and audit). */
export interface AdminSalePage {
  sales: AdminSaleDto[];
  nextCursor: string | null;
}

/**
 * POST …/zip of a download link or a code: one ZIP of the originals that still have downloads
 * left, each counted once. `url` is short-lived and serves the file as an attachment.
 */
export interface DownloadZip {
  url: string;
  filename: string;
  photoCount: number;
}

/**
 * POST /api/sales/download/{token}/retry: a new checkout for the same photos after a declined or
 * failed payment. `amount` is what the buyer was shown; a different price is refused (409).
 */
export const retrySaleRequest = z.object({ amount: z.number().int().nonnegative().optional() });
export type RetrySaleRequest = z.input<typeof retrySaleRequest>;

/** Spec §9: validity and download options of a code. */
export const codeValidityDays = [7, 15, 30, 60] as const;
export const codeMaxDownloads = [3, 5, 10, 20] as const;

/** POST /api/admin/generate-download-code. */
export const generateDownloadCodeRequest = z.object({
  eventId: z.coerce
    .number({ error: salesMessages.codeFieldsRequired })
    .int()
    .positive(salesMessages.codeFieldsRequired),
  dorsalNumber: z
    .string({ error: salesMessages.codeFieldsRequired })
    .trim()
    .min(1, salesMessages.codeFieldsRequired)
    .refine(isBibText, salesMessages.codeDorsalNumeric)
    .transform(normaliseBib),
  expiresInDays: z.coerce
    .number()
    .refine((days) => (codeValidityDays as readonly number[]).includes(days), "Validez: 7, 15, 30 o 60 días")
    .default(30),
  maxDownloads: z.coerce
    .number()
    .refine((count) => (codeMaxDownloads as readonly number[]).includes(count), "Descargas: 3, 5, 10 o 20")
    .default(5),
  /**
   * A code for a bib with no photos in the event yet is refused (409, `codeBibWithoutPhotos`) unless
   * the organizer confirms: the number may be mistyped, or the photos may still be on their way.
   */
  allowWithoutPhotos: z.boolean().default(false),
  /** Where to email the code's chat message as well; blank is the same as none. */
  email: z
    .string()
    .trim()
    .transform((email) => email || undefined)
    .pipe(customerEmail.optional())
    .optional(),
});
export type GenerateDownloadCodeRequest = z.input<typeof generateDownloadCodeRequest>;

export interface DownloadCodeResult {
  code: string;
  dorsalNumber: string;
  eventId: number;
  eventName: string;
  expiresAt: string;
  maxDownloads: number;
  /** The email of the code's message, when the admin gave an address. */
  mail: MailOutcome | null;
}

/**
 * GET /api/admin/download-codes?eventId=: a code as the organizer's table lists it (spec §3
 * download_codes). Downloads count per photo, as they do for the athlete: each photo of the bib
 * may be downloaded `maxDownloads` times, and `remainingDownloads` is what the most downloaded one
 * has left, the very number the athlete's code dialog shows.
 */
export interface IssuedDownloadCode {
  code: string;
  eventId: number;
  dorsalNumber: string;
  isUsed: boolean;
  usedAt: string | null;
  expiresAt: string;
  maxDownloads: number;
  remainingDownloads: number;
  /** What the least downloaded photo has left (equal to `remainingDownloads` when all match). */
  mostRemainingDownloads: number;
  /** Processed photos of the bib in the event now. */
  photoCount: number;
  /** Downloads counted over all its photos. */
  downloadCount: number;
  createdAt: string;
}

/**
 * What is left of a per-photo allowance, worded once for the athlete (purchase link, code dialog)
 * and the organizer's code table: '2 de 3 descargas restantes por foto', or '1 a 2 de 3 …' when
 * some photos were downloaded more often than others.
 */
export function downloadsLeftText({ fewest, most, max }: { fewest: number; most: number; max: number }): string {
  const range = fewest === most ? `${fewest}` : `${fewest} a ${most}`;
  return `${range} de ${max} descargas restantes por foto`;
}

/** A download code as typed by the athlete: trimmed and uppercased (spec §5). */
export const downloadCode = z
  .string({ error: salesMessages.codeRequired })
  .trim()
  .min(1, salesMessages.codeRequired)
  .max(32, salesMessages.codeInvalid)
  .transform((code) => code.toUpperCase());

/** POST /api/download-codes/validate. */
export const validateDownloadCodeRequest = z.object({
  code: downloadCode,
  eventId: idParam,
  dorsalNumber,
});
export type ValidateDownloadCodeRequest = z.input<typeof validateDownloadCodeRequest>;

/** Spec §3 validation response (valid, error, remainingDownloads) plus what the dialog downloads. */
export type DownloadCodeValidation =
  | { valid: true; remainingDownloads: number; maxDownloads: number; expiresAt: string; photos: DownloadPhoto[] }
  | { valid: false; error: string; remainingDownloads: 0 };

/** A public event with photos to browse (GET /api/events/all-with-photos, GET /api/free-events). */
export type PublicEventDto = Pick<
  EventDto,
  "id" | "name" | "date" | "location" | "status" | "freePhotosEnabled" | "requiresAthleteLogin" | "photoCount"
>;

/** The bib grid: 100 per page, in bib order (GET /api/events/{id}/dorsals/all?page=N). */
export interface DorsalPage {
  dorsals: { dorsalNumber: string; photoCount: number }[];
  page: number;
  pageSize: number;
  /** Bibs of the event with at least one photo. */
  total: number;
  totalPages: number;
}

/**
 * One bib's photos, paged (GET /api/events/{id}/photos/{dorsal}/all?limit=12&cursor=…): the first 12,
 * then '+N más' asks for the next page. Public copies only (watermarked or GRATIS/DEMO), or clean
 * ones for a signed-in athlete on a `requiresAthleteLogin` event.
 */
export interface BibPhotoPage {
  eventId: number;
  dorsalNumber: string;
  /** The bib's participant on the event's start list, when it has one. */
  participantName: string | null;
  totalFound: number;
  photos: PhotoDto[];
  nextCursor: string | null;
}

/** POST /api/photos/by-ids (spec §7): the purchase screen's chosen photos, public copies. */
export const photosByIdsRequest = z.object({ photoIds });

/** POST /api/auth/athlete-register: an athlete account (role athlete) signs in at /athlete-login. */
export const athleteRegisterRequest = z.object({
  name: customerName,
  email: customerEmail,
  password: newPassword,
});
export type AthleteRegisterRequest = z.input<typeof athleteRegisterRequest>;

/** POST /api/events/{id}/athlete-access: the explicit per-event promise of spec §1 (off by default). */
export const athleteAccessRequest = z.object({ requiresAthleteLogin: z.boolean() });

/** Spec §2.6 payment instructions: WhatsApp link to the support number with country prefix 57. */
export function whatsappLink(supportPhone: string, message: string): string {
  const digits = supportPhone.replace(/\D/g, "");
  const withPrefix = digits.startsWith("57") && digits.length === 12 ? digits : `57${digits}`;
  return `https://wa.me/${withPrefix}?text=${encodeURIComponent(message)}`;
}
