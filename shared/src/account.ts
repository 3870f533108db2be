import { z } from "zod";

/** 'Tu cuenta' (the `user` and `athlete` home): Spanish words the server and the screen share. */
export const accountMessages = {
  notVerified: "Verifica tu correo para ver tus compras y códigos",
  verificationInvalid: "El enlace de verificación no es válido, ya se usó o venció. Pide uno nuevo desde Tu cuenta",
  verificationTooSoon: "Ya te enviamos un correo de verificación hace poco. Revisa tu bandeja o espera un minuto",
  alreadyVerified: "Tu correo ya está verificado",
  purchaseNotFound: "Compra no encontrada",
  linkOnlyForPaid: "Esta compra ya no tiene descargas disponibles",
} as const;

/** The verification link's token: `<userId>.<secret>`, so the account is found without a lookup item. */
export const verifyEmailRequest = z.object({ token: z.string().min(20).max(200) });

export const accountPurchasesQuery = z.object({ cursor: z.string().max(2000).optional() });
export const accountSaleParams = z.object({ saleId: z.string().regex(/^[a-z0-9]{10,40}$/) });

/** A paid sale whose buyer email is the verified account's. */
export interface AccountPurchase {
  id: string;
  eventId: number;
  eventName: string;
  dorsalNumber: string | null;
  photoCount: number;
  amount: number;
  paidAt: string;
  expiresAt: string | null;
  expired: boolean;
  maxDownloads: number;
  /** The fewest downloads left over the sale's photos (the allowance counts per photo). */
  downloadsLeft: number;
}

export interface AccountPurchasePage {
  purchases: AccountPurchase[];
  nextCursor: string | null;
}

/** A download code an admin emailed to the account's address. */
export interface AccountCode {
  code: string;
  eventId: number;
  eventName: string;
  dorsalNumber: string;
  remainingDownloads: number;
  maxDownloads: number;
  expiresAt: string;
  expired: boolean;
}

export interface AccountSentLink {
  to: string;
  sent: boolean;
}
