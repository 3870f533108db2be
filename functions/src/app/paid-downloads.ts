import { type DownloadInfo, type DownloadZip, messages, salesMessages } from "@dorsal/shared";
import { api, pathFor } from "@dorsal/shared/contract";
import { type SaleRecord, saleDownloadGrant, saleExpired } from "../data/sales";
import { saleOfToken } from "./checkout";
import type { Deps } from "./deps";
import { forbidden, gone, notFound } from "./errors";
import { downloadablePhotos, signedOriginalUrl } from "./original-download";
import { zipOfOriginals } from "./original-zip";
import { confirmByLookup } from "./settlement";

/**
 * GET /api/sales/download/{token}: what the download page shows. Reading never counts a download.
 * A paid sale lists its photos (clean web copy and thumbnail) with the downloads left for each;
 * any other state lists none.
 */
export async function downloadInfo(
  deps: Pick<
    Deps,
    | "clock"
    | "sales"
    | "payments"
    | "logger"
    | "events"
    | "photos"
    | "urls"
    | "config"
    | "downloadCounts"
    | "mail"
    | "siteUrl"
  >,
  token: string,
  transactionId: string | undefined,
): Promise<DownloadInfo> {
  let sale = await saleOfToken(deps, token);
  if (sale.status === "pending" && transactionId) sale = await confirmByLookup(deps, sale, transactionId);
  const event = await deps.events.get(sale.eventId);
  const info = {
    status: sale.status,
    eventId: sale.eventId,
    eventName: event?.name ?? "",
    dorsalNumber: sale.dorsalNumber,
    customerName: sale.customerName,
    customerEmail: sale.customerEmail,
    reference: sale.reference,
    amount: sale.amount,
    currency: sale.currency,
    paidAt: sale.paidAt,
    paymentMethod: sale.paymentMethod,
    statusMessage: sale.status === "declined" || sale.status === "error" ? (sale.statusMessage ?? null) : null,
    photoIds: sale.photoIds,
    expiresAt: sale.expiresAt,
    maxDownloads: sale.maxDownloads,
  };
  if (sale.status !== "paid") return { ...info, photos: [], remainingDownloads: 0 };
  if (saleExpired(sale, deps.clock.now())) throw gone(salesMessages.downloadExpired);
  const downloadable = await downloadablePhotos(
    deps,
    {
      partition: saleDownloadGrant(sale.id),
      maxDownloads: sale.maxDownloads,
      downloadUrl: (photoId) => pathFor(api.sales.downloadPhoto, { token, photoId }),
    },
    await deps.photos.getMany(sale.photoIds),
  );
  return { ...info, ...downloadable };
}

/** The sale behind a download link, if its downloads are open: paid and not expired. */
async function downloadableSale(deps: Pick<Deps, "sales" | "clock">, token: string): Promise<SaleRecord> {
  const sale = await saleOfToken(deps, token);
  if (sale.status === "pending") throw forbidden(salesMessages.paymentPending);
  if (sale.status !== "paid") throw forbidden(salesMessages.paymentDeclined);
  if (saleExpired(sale, deps.clock.now())) throw gone(salesMessages.downloadExpired);
  return sale;
}

/**
 * GET /api/sales/download/{token}/photos/{photoId}: counts one download of the photo (one
 * conditional ADD, so parallel requests never pass the cap) and returns a short-lived signed URL
 * of the clean original.
 */
export async function downloadPhoto(
  deps: Pick<Deps, "sales" | "clock" | "photos" | "downloadCounts" | "urls">,
  token: string,
  photoId: string,
): Promise<string> {
  const sale = await downloadableSale(deps, token);
  const photo = sale.photoIds.includes(photoId) ? await deps.photos.get(photoId) : undefined;
  if (!photo) throw notFound(messages.notFound);
  const left = await deps.downloadCounts.consume(saleDownloadGrant(sale.id), photoId, sale.maxDownloads);
  if (left === null) throw forbidden(salesMessages.downloadLimit);
  return signedOriginalUrl(deps, photo);
}

/**
 * POST /api/sales/download/{token}/zip: one ZIP of the sale's originals that still have downloads
 * left, each counted once (app/original-zip.ts); 403 when none has any left.
 */
export async function downloadZip(
  deps: Pick<Deps, "sales" | "clock" | "events" | "photos" | "objects" | "urls" | "downloadCounts" | "logger">,
  token: string,
): Promise<DownloadZip> {
  const sale = await downloadableSale(deps, token);
  const event = await deps.events.get(sale.eventId);
  const title = ["fotos", event?.name, sale.dorsalNumber && `dorsal ${sale.dorsalNumber}`].filter(Boolean).join(" ");
  const zip = await zipOfOriginals(
    deps,
    { partition: saleDownloadGrant(sale.id), maxDownloads: sale.maxDownloads, title },
    await deps.photos.getMany(sale.photoIds),
  );
  if (!zip) throw forbidden(salesMessages.downloadLimit);
  return zip;
}
