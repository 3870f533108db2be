import type { EventDto, PresignResponse, SearchResponse } from "@dorsal/shared";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { apiClient, waitFor } from "./api";

/**
 * An event with processed photos of known bibs, made through the real upload path (presign, PUT to
 * storage, the pipeline and its recognition), for the athlete-side suites. `bibs` lists one entry
 * per photo, so ["5173", "5173", "42"] makes two photos of 5173 and one of 42.
 */
export async function seedEventWithBibPhotos(
  dorsal: { url: string },
  adminToken: string,
  options: { name: string; bibs: string[]; freePhotos?: boolean },
): Promise<{ event: EventDto; photoIdsByBib: Map<string, string[]> }> {
  const admin = apiClient(dorsal.url, adminToken);
  const created = await admin.post<EventDto>("/api/events", {
    name: options.name,
    date: "2026-11-29",
    location: "Bogotá",
  });
  if (created.status !== 201 && created.status !== 200) throw new Error(`event not created: ${created.status}`);
  const event = created.body;
  const photoIdsByBib = await uploadBibPhotos(dorsal, adminToken, event.id, options.bibs);
  if (options.freePhotos) {
    const freed = await admin.post(`/api/events/${event.id}/enable-free-photos`);
    if (freed.status !== 200) throw new Error(`free photos not enabled: ${freed.status}`);
  }
  return { event, photoIdsByBib };
}

/** Photos of known bibs uploaded to an existing event through the real upload path, once each is searchable. */
export async function uploadBibPhotos(
  dorsal: { url: string },
  adminToken: string,
  eventId: number,
  bibs: string[],
): Promise<Map<string, string[]>> {
  const admin = apiClient(dorsal.url, adminToken);
  const searchable = async (bib: string) =>
    (await apiClient(dorsal.url).get<SearchResponse>(`/api/photos/search?eventId=${eventId}&dorsalNumber=${bib}`)).body
      .totalFound;
  const before = new Map(
    await Promise.all([...new Set(bibs)].map(async (bib) => [bib, await searchable(bib)] as const)),
  );
  const photos = await Promise.all(
    bibs.map((bib, index) => makeBibPhoto(bib, { width: 1200 + index * 8, height: 900 })),
  );
  const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
    eventId,
    files: photos.map((photo, index) => ({
      filename: `bib-${bibs[index]}-${index}.jpg`,
      contentType: "image/jpeg",
      size: photo.length,
    })),
  });
  if (presigned.status !== 200) throw new Error(`presign failed: ${presigned.status}`);
  const photoIdsByBib = new Map<string, string[]>();
  await Promise.all(
    presigned.body.uploads.map(async (upload, index) => {
      const photo = photos[index] as Buffer;
      const put = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: photo });
      if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);
      const bib = bibs[index] as string;
      photoIdsByBib.set(bib, [...(photoIdsByBib.get(bib) ?? []), upload.photoId]);
    }),
  );
  for (const [bib, ids] of photoIdsByBib) {
    await waitFor(
      async () => ((await searchable(bib)) >= (before.get(bib) ?? 0) + ids.length ? true : undefined),
      120_000,
      `the ${ids.length} photo(s) of bib ${bib} to become searchable`,
    );
  }
  return photoIdsByBib;
}
