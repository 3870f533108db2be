import { formatPrice } from "./pricing";
import type { DownloadCodeResult } from "./sales";

/**
 * What Dorsal sends, in Spanish: built here so the server's emails and the screens that show the
 * same words (the code's chat message) never drift apart. A subpath of its own
 * (`@dorsal/shared/mail-texts`): the package index joins the athlete's first load.
 */

/** The product's name, as emails sign and name it. */
export const productName = "Dorsal";

/** A sender as MAIL_FROM gives it: `fotos@example.co` or `Fotos Dorsal <fotos@example.co>`. */
const mailboxPattern =
  /^(?:(?<name>[^<>"]*?)\s*<(?<bracketed>[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)>|(?<bare>[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+))$/;

/** MAIL_FROM's display name (null when it has none) and address; null when it is neither form. */
export function parseMailbox(value: string): { name: string | null; address: string } | null {
  const groups = mailboxPattern.exec(value.trim())?.groups;
  const address = groups?.bracketed ?? groups?.bare;
  if (!address) return null;
  return { name: groups?.name?.trim() || null, address };
}

let colombianDay: Intl.DateTimeFormat | undefined;

/** A moment's calendar day in Colombia ('24 de diciembre de 2026'), wherever the code runs. */
export function formatColombianDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  colombianDay ??= new Intl.DateTimeFormat("es-CO", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "America/Bogota",
  });
  return colombianDay.format(date);
}

/**
 * Spec §2.7: the ready chat message the organizer sends back to the customer who paid; sent as the
 * body of an email too. It says where to use the code, since the customer may not have the site open.
 */
export function codeChatMessage(result: Omit<DownloadCodeResult, "mail">, origin: string): string {
  return [
    `¡Hola! Confirmamos tu pago de las fotos de ${result.eventName}.`,
    `Tu código de descarga: ${result.code}`,
    `Dorsal: ${result.dorsalNumber}`,
    `Válido hasta: ${formatColombianDay(result.expiresAt)}`,
    `Descargas permitidas por foto: ${result.maxDownloads}`,
    `Busca tu dorsal en ${origin}/search y usa el código para descargar tus fotos sin marca de agua.`,
  ].join("\n");
}

/** An email's words: the subject, and the body as paragraphs (a paragraph's lines break as written). */
export interface MailText {
  subject: string;
  paragraphs: string[];
}

const signature = `— ${productName}`;

interface SaleMailFacts {
  customerName: string;
  eventName: string;
  dorsalNumber: string | null;
  photoCount: number;
  link: string;
  expiresAt: string | null;
  maxDownloads: number;
}

const photosOf = ({ photoCount, eventName, dorsalNumber }: SaleMailFacts) =>
  `${photoCount === 1 ? "tu foto" : `tus ${photoCount} fotos`} de ${eventName}${dorsalNumber ? ` (dorsal ${dorsalNumber})` : ""}`;

const linkTerms = ({ expiresAt, maxDownloads }: SaleMailFacts) =>
  `${expiresAt ? `El enlace vence el ${formatColombianDay(expiresAt)} y` : "El enlace"} permite ${maxDownloads} descargas de cada foto.`;

/** The texts of every email Dorsal sends. */
export const mailTexts = {
  /** To the buyer, once, when the payment is approved: a link that works beside the return page's. */
  salePaid: (sale: SaleMailFacts & { amount: number; reference: string }): MailText => ({
    subject: `Tus fotos de ${sale.eventName} están listas`,
    paragraphs: [
      `Hola ${sale.customerName}:`,
      `Recibimos tu pago de ${formatPrice(sale.amount)} (referencia ${sale.reference}). Descarga ${photosOf(sale)} aquí:`,
      sale.link,
      `${linkTerms(sale)} Guarda este correo: con él vuelves a tus fotos aunque hayas cerrado la página del pago.`,
      signature,
    ],
  }),
  /** To the buyer, when the admin gives a new link ('Nuevo enlace'): the older ones stop working. */
  saleNewLink: (sale: SaleMailFacts): MailText => ({
    subject: `Nuevo enlace para descargar tus fotos de ${sale.eventName}`,
    paragraphs: [
      `Hola ${sale.customerName}:`,
      `El organizador te envía un nuevo enlace para descargar ${photosOf(sale)}:`,
      sale.link,
      `${linkTerms(sale)} Los enlaces anteriores ya no funcionan; las descargas que hiciste siguen contando.`,
      signature,
    ],
  }),
  /** To the buyer, when they ask for a link from 'Tu cuenta': the older ones stop working. */
  saleLinkFromAccount: (sale: SaleMailFacts): MailText => ({
    subject: `Tu enlace para descargar tus fotos de ${sale.eventName}`,
    paragraphs: [
      `Hola ${sale.customerName}:`,
      `Pediste desde Tu cuenta un nuevo enlace para descargar ${photosOf(sale)}:`,
      sale.link,
      `${linkTerms(sale)} Los enlaces anteriores ya no funcionan; las descargas que hiciste siguen contando.`,
      signature,
    ],
  }),
  applicationApproved: (applicant: {
    fullName: string;
    email: string;
    eventName: string;
    loginUrl: string;
  }): MailText => ({
    subject: `Tu solicitud de fotógrafo en ${productName} fue aprobada`,
    paragraphs: [
      `Hola ${applicant.fullName}:`,
      `Aprobamos tu solicitud para fotografiar con ${productName}. Evento asignado: ${applicant.eventName}.`,
      `Ingresa en ${applicant.loginUrl} con tu correo (${applicant.email}). El organizador te dará tu contraseña por otro medio: por seguridad no la enviamos por correo.`,
      signature,
    ],
  }),
  applicationRejected: (applicant: { fullName: string; adminNotes: string | null }): MailText => ({
    subject: `Tu solicitud de fotógrafo en ${productName}`,
    paragraphs: [
      `Hola ${applicant.fullName}:`,
      `Gracias por tu interés en fotografiar con ${productName}. Por ahora no podemos aprobar tu solicitud.`,
      ...(applicant.adminNotes ? [`Notas del organizador:\n${applicant.adminNotes}`] : []),
      signature,
    ],
  }),
  downloadCode: (result: Omit<DownloadCodeResult, "mail">, origin: string): MailText => ({
    subject: `Tu código de descarga para las fotos de ${result.eventName}`,
    paragraphs: [codeChatMessage(result, origin), signature],
  }),
  /** To whoever asked on /search for 'Avísame…': nothing is sent for the bib until they confirm. */
  notifyConfirm: (request: { eventName: string; bib: string; link: string; expiresAt: string }): MailText => ({
    subject: `Confirma tu aviso de fotos de ${request.eventName}`,
    paragraphs: [
      `Alguien (esperamos que tú) pidió en ${productName} que te escribamos a este correo cuando haya fotos del dorsal ${request.bib} en ${request.eventName}.`,
      "Para confirmarlo, abre este enlace y pulsa Confirmar:",
      request.link,
      `El enlace vence el ${formatColombianDay(request.expiresAt)}. Si no fuiste tú, ignora este correo: no te escribiremos más y borraremos el pedido.`,
      signature,
    ],
  }),
  /** The one message of a bib's photos, after they stopped arriving for a while. */
  notifyPhotos: (notice: {
    eventName: string;
    bib: string;
    photoCount: number;
    searchLink: string;
    unsubscribeLink: string;
  }): MailText => ({
    subject: `Ya están tus fotos de ${notice.eventName}`,
    paragraphs: [
      "¡Hola!",
      `Ya hay ${notice.photoCount === 1 ? "1 foto" : `${notice.photoCount} fotos`} del dorsal ${notice.bib} en ${notice.eventName}. Míralas aquí:`,
      notice.searchLink,
      `Si llegan más, te avisaremos como mucho una vez al día. Para no recibir más avisos de este dorsal: ${notice.unsubscribeLink}`,
      signature,
    ],
  }),
  /** To an account's owner: the link that proves the email is theirs, before 'Tu cuenta' lists purchases by it. */
  verifyEmail: (account: { name: string | null; link: string; hours: number }): MailText => ({
    subject: "Confirma tu correo en Dorsal",
    paragraphs: [
      account.name ? `Hola ${account.name}:` : "Hola:",
      "Abre este enlace para confirmar que este correo es tuyo. Así verás en Tu cuenta las fotos que compraste y los códigos que te enviaron:",
      account.link,
      `El enlace funciona una sola vez y vence en ${account.hours} horas. Si no creaste una cuenta en Dorsal, ignora este correo.`,
      signature,
    ],
  }),
} satisfies Record<string, (...args: never[]) => MailText>;
