import type { PhotoDto, PhotoPage } from "@dorsal/shared";
import type { InfiniteData } from "@tanstack/react-query";

export type PhotoPages = InfiniteData<PhotoPage, unknown>;

/**
 * Puts the server's answer for one photo into a cached list, where that photo is listed. The
 * image URLs already shown are kept: the answer carries freshly signed ones, and swapping them
 * would reload every image of the card for nothing.
 */
export function replacePhoto(data: PhotoPages | undefined, updated: PhotoDto): PhotoPages | undefined {
  if (!data?.pages.some((page) => page.photos.some((photo) => photo.id === updated.id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.photos.some((photo) => photo.id === updated.id)
        ? {
            ...page,
            photos: page.photos.map((photo) =>
              photo.id === updated.id
                ? {
                    ...updated,
                    thumbnailUrl: photo.thumbnailUrl ?? updated.thumbnailUrl,
                    webUrl: photo.webUrl ?? updated.webUrl,
                  }
                : photo,
            ),
          }
        : page,
    ),
  };
}

export function photosOf(data: PhotoPages | undefined): PhotoDto[] {
  return data?.pages.flatMap((page) => page.photos) ?? [];
}

/**
 * What the 'Sin dorsal' tab shows as its count: the listed photos still without a bib (tagging
 * one keeps it on screen until the list is reloaded), with a '+' while more pages remain.
 */
export function unbibbedCountLabel(data: PhotoPages | undefined, hasMore: boolean): string | null {
  if (!data) return null;
  const remaining = photosOf(data).filter((photo) => (photo.bibs ?? []).length === 0).length;
  return hasMore ? `${remaining}+` : String(remaining);
}
