import { type DownloadPhoto, downloadsLeftText } from "@dorsal/shared";
import { formatCount } from "./format";

/**
 * The allowance as the server counts it (docs/payments.md): each photo may be downloaded `max`
 * times, and a ZIP counts one download of each photo in it.
 */
export function allowanceText(max: number, withCode = false): string {
  const times = max === 1 ? "1 vez" : `${formatCount(max)} veces`;
  return `${withCode ? "Con este código, cada" : "Cada"} foto se puede descargar ${times}. «Descargar todas (ZIP)» cuenta una descarga de cada foto.`;
}

/** What is left, per photo: '2 de 3 descargas restantes por foto', or a range when photos differ. */
export function remainingPerPhoto(photos: readonly Pick<DownloadPhoto, "remainingDownloads">[], max: number): string {
  const left = photos.map((photo) => Math.max(0, photo.remainingDownloads));
  const fewest = left.length ? Math.min(...left) : 0;
  const most = left.length ? Math.max(...left) : 0;
  return downloadsLeftText({ fewest, most, max });
}

/** Downloads end once no photo has any left (a photo downloaded more often does not close the others). */
export const nothingLeft = (photos: readonly Pick<DownloadPhoto, "remainingDownloads">[]) =>
  photos.every((photo) => photo.remainingDownloads <= 0);
