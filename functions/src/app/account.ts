import { createHash, randomBytes } from "node:crypto";
import { messages } from "@dorsal/shared";
import {
  type AccountCode,
  type AccountPurchase,
  type AccountPurchasePage,
  type AccountSentLink,
  accountMessages,
} from "@dorsal/shared/account";
import { mailTexts } from "@dorsal/shared/mail-texts";
import type { PageCursor } from "../data/photos";
import { type SaleRecord, saleExpired } from "../data/sales";
import type { UserRecord } from "../data/users";
import { drawDownloadToken } from "./checkout";
import type { Deps } from "./deps";
import { codeInUse } from "./download-codes";
import { AppError, conflict, forbidden, invalid, notFound, unauthenticated } from "./errors";
import { sendMail } from "./mail";
import { encodeCursor } from "./page-cursor";
import { downloadLink, saleMailFacts } from "./sale-mail";
import { downloadsLeft } from "./sales-report";
import type { SessionClaims } from "./tokens";

/** A verification link works this long; long enough to open tomorrow's email. */
const verificationHours = 48;
/** One verification email a minute per account: a click can resend, a script cannot flood an inbox. */
const resendGapMs = 60_000;
const purchasesPerPage = 20;
const codesShown = 50;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
/** How sales and codes file a buyer's address, and how an account's email is compared with it. */
const normalisedEmail = (email: string) => email.trim().toLowerCase();

/**
 * Sends the account's owner the link that proves the email is theirs:
 * 1. the secret is 32 random bytes; the link carries `{userId}.{secret}`, the account keeps only the
 *    secret's SHA-256, and a new link replaces the previous one;
 * 2. at most one a minute per account (the conditional write on the last send time);
 * 3. the email failing is reported, never thrown: registration must not fail on it.
 */
export async function sendVerificationEmail(
  deps: Pick<Deps, "users" | "mail" | "logger" | "siteUrl" | "clock">,
  user: UserRecord,
): Promise<AccountSentLink> {
  if (user.emailVerifiedAt) throw conflict(accountMessages.alreadyVerified);
  const secret = randomBytes(32).toString("base64url");
  const expiresAt = new Date(deps.clock.now().getTime() + verificationHours * 3600_000);
  const armed = await deps.users.armVerification(user, { tokenHash: sha256(secret), expiresAt }, resendGapMs);
  if (armed === "too_soon") throw new AppError("too_many", accountMessages.verificationTooSoon);
  const link = `${deps.siteUrl}/verify-email?token=${user.id}.${secret}`;
  return sendMail(deps, user.email, mailTexts.verifyEmail({ name: user.name, link, hours: verificationHours }), {
    purpose: "verify-email",
    userId: user.id,
  });
}

/** POST /api/account/verification: 'Reenviar verificación' on 'Tu cuenta'. */
export async function resendVerification(
  deps: Pick<Deps, "users" | "mail" | "logger" | "siteUrl" | "clock">,
  session: SessionClaims,
): Promise<AccountSentLink> {
  const user = await deps.users.get(session.userId);
  if (!user) throw unauthenticated(messages.unauthorized);
  return sendVerificationEmail(deps, user);
}

/**
 * POST /api/account/verify-email: the link's token verifies the account if it is the current one,
 * unexpired, and the account still has the email it was sent to. Every failure is the same 400, so
 * the answer never tells which accounts exist.
 */
export async function verifyEmail(deps: Pick<Deps, "users" | "clock">, token: string): Promise<{ verified: true }> {
  const refused = invalid(accountMessages.verificationInvalid);
  const [userId, secret] = token.split(".");
  if (!userId || !secret || !/^[a-z0-9]{10,40}$/.test(userId)) throw refused;
  const user = await deps.users.get(userId);
  const expiresAt = user?.verificationExpiresAt;
  if (!user || !expiresAt || Date.parse(expiresAt) <= deps.clock.now().getTime()) throw refused;
  if (!(await deps.users.verifyEmail(user, sha256(secret)))) throw refused;
  return { verified: true };
}

/**
 * The signed-in account, if its email is verified: until then anyone could have registered any
 * address, so listing what was sold to it would show another person's purchases.
 */
async function verifiedAccount(deps: Pick<Deps, "users">, session: SessionClaims): Promise<UserRecord> {
  const user = await deps.users.get(session.userId);
  if (!user) throw unauthenticated(messages.unauthorized);
  if (!user.emailVerifiedAt) throw forbidden(accountMessages.notVerified);
  return user;
}

const boughtBy = (sale: SaleRecord, user: UserRecord) =>
  normalisedEmail(sale.customerEmail) === normalisedEmail(user.email);

type AccountDeps = Pick<Deps, "users" | "sales" | "events" | "downloadCounts" | "clock">;

/** The events' names, each read once however many rows name it. */
function eventNames(deps: Pick<Deps, "events">) {
  const names = new Map<number, Promise<string>>();
  return (eventId: number) => {
    let name = names.get(eventId);
    if (!name) {
      name = deps.events.get(eventId).then((event) => event?.name ?? "");
      names.set(eventId, name);
    }
    return name;
  };
}

/**
 * GET /api/account/purchases: the paid sales bought with the account's verified email, newest
 * first, a page at a time (a page may hold fewer than its size: unpaid sales are read and left out).
 */
export async function accountPurchases(
  deps: AccountDeps,
  session: SessionClaims,
  cursor: PageCursor | undefined,
): Promise<AccountPurchasePage> {
  const user = await verifiedAccount(deps, session);
  const page = await deps.sales.listForBuyer(user.email, { limit: purchasesPerPage, cursor });
  const nameOf = eventNames(deps);
  const now = deps.clock.now();
  const purchases = await Promise.all(
    page.sales
      .filter((sale) => sale.status === "paid" && sale.paidAt && boughtBy(sale, user))
      .map(
        async (sale): Promise<AccountPurchase> => ({
          id: sale.id,
          eventId: sale.eventId,
          eventName: await nameOf(sale.eventId),
          dorsalNumber: sale.dorsalNumber,
          photoCount: sale.photoIds.length,
          amount: sale.amount,
          paidAt: sale.paidAt ?? sale.createdAt,
          expiresAt: sale.expiresAt,
          expired: saleExpired(sale, now),
          maxDownloads: sale.maxDownloads,
          downloadsLeft: (await downloadsLeft(deps, sale)) ?? 0,
        }),
      ),
  );
  return { purchases, nextCursor: encodeCursor(page.cursor) };
}

/**
 * POST /api/account/purchases/{saleId}/link: 'Enviar enlace a mi correo'. A fresh download link goes
 * to the account's own (verified) address, never shown in the answer; as with the admin's new link,
 * every older link stops working and the downloads already made keep counting. Another account's
 * sale is a 404, as if it did not exist.
 */
export async function sendPurchaseLink(
  deps: AccountDeps & Pick<Deps, "mail" | "logger" | "siteUrl">,
  session: SessionClaims,
  saleId: string,
): Promise<AccountSentLink> {
  const user = await verifiedAccount(deps, session);
  const sale = await deps.sales.get(saleId);
  if (sale?.status !== "paid" || !boughtBy(sale, user)) throw notFound(accountMessages.purchaseNotFound);
  const now = deps.clock.now();
  if (saleExpired(sale, now)) throw conflict(accountMessages.linkOnlyForPaid);
  const { token, tokenHash } = drawDownloadToken();
  // A second request racing this one: its link is the one that works.
  if (!(await deps.sales.replaceToken(sale, tokenHash, now))) throw conflict(accountMessages.linkOnlyForPaid);
  const facts = await saleMailFacts(deps, sale, downloadLink(deps, token));
  return sendMail(deps, user.email, mailTexts.saleLinkFromAccount(facts), {
    purpose: "account-sale-link",
    saleId: sale.id,
  });
}

/** GET /api/account/codes: the download codes an admin emailed to the account's verified address. */
export async function accountCodes(deps: Deps, session: SessionClaims): Promise<{ codes: AccountCode[] }> {
  const user = await verifiedAccount(deps, session);
  const now = deps.clock.now().getTime();
  const nameOf = eventNames(deps);
  const records = await deps.downloadCodes.listSentTo(user.email, codesShown);
  const codes = await Promise.all(
    records.map(async (record): Promise<AccountCode> => {
      const used = await codeInUse(deps, record);
      return {
        code: record.code,
        eventId: record.eventId,
        eventName: await nameOf(record.eventId),
        dorsalNumber: record.dorsalNumber,
        remainingDownloads: used.remainingDownloads,
        maxDownloads: record.maxDownloads,
        expiresAt: record.expiresAt,
        expired: Date.parse(record.expiresAt) <= now,
      };
    }),
  );
  return { codes };
}
