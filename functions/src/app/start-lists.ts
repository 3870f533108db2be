import {
  decodeCsvBytes,
  messages,
  normaliseBib,
  type ParticipantPage,
  parseStartListCsv,
  type StartListDeleteResponse,
  type StartListImportResponse,
  startListLimits,
  startListMessages,
} from "@dorsal/shared";
import type { MultipartForm } from "../http/multipart";
import type { Deps } from "./deps";
import { conflict, invalid, notFound, tooLarge } from "./errors";
import { getEvent } from "./events";
import { subscribeStartList } from "./notifications";
import { decodeCursor, encodeCursor } from "./page-cursor";

/**
 * Replaces the event's start list with a CSV's rows. All or nothing: a file with any bad line is
 * refused whole, each line's problem in the error's details, and the list stays as it was — a
 * half-imported list would silently unpublish the bibs of everyone on the lines left out.
 * Photos already processed keep their bibs until the event is re-indexed; the answer says how many.
 */
export async function importStartList(
  deps: Deps,
  eventId: number,
  form: MultipartForm | undefined,
  importedBy: string,
): Promise<StartListImportResponse> {
  const event = await getEvent(deps, eventId);
  const file = form?.files.find((candidate) => candidate.field === "file");
  if (!file || file.data.length === 0)
    throw invalid(startListMessages.fileRequired, [{ path: "file", message: startListMessages.fileRequired }]);
  if (file.data.length > startListLimits.maxBytes)
    throw tooLarge(startListMessages.tooLarge(startListLimits.maxBytes / (1024 * 1024)));

  const { rows, errors } = parseStartListCsv(decodeCsvBytes(file.data));
  if (errors.length > 0) {
    const reported = errors.slice(0, startListLimits.maxReportedErrors);
    const lineErrors = errors.filter((error) => error.line !== null).length;
    throw invalid(
      lineErrors > 0 ? startListMessages.refused(lineErrors) : (errors[0]?.message ?? messages.invalidRequest),
      reported.map((error) => ({ path: error.line === null ? "file" : `línea ${error.line}`, message: error.message })),
    );
  }
  if (rows.length === 0) throw invalid("El archivo no tiene participantes: solo la línea de encabezados");

  const record = await deps.startLists.replace(eventId, deps.ids.newId(), rows, importedBy, deps.clock.now());
  if (!record) throw conflict(startListMessages.switchedMeanwhile);
  await subscribeStartList(deps, eventId, rows);
  return { imported: record.count, importedAt: record.importedAt, processedPhotos: event.photoCount };
}

/** A page of the event's start list in bib order, with each participant's photo count. */
export async function listParticipants(
  deps: Deps,
  eventId: number,
  options: { limit: number; cursor?: string | undefined },
): Promise<ParticipantPage> {
  if (!(await deps.events.get(eventId))) throw notFound(messages.eventNotFound);
  const list = await deps.startLists.current(eventId);
  if (!list) return { startList: null, participants: [], cursor: null };
  const page = await deps.startLists.page(list, { limit: options.limit, cursor: decodeCursor(options.cursor) });
  const counts = await deps.participants.participantCountsOf(
    eventId,
    page.entries.map((entry) => entry.dorsalNumber),
  );
  return {
    startList: { count: list.count, importedAt: list.importedAt },
    participants: page.entries.map((entry) => ({
      dorsalNumber: entry.dorsalNumber,
      name: entry.name,
      email: entry.email,
      category: entry.category,
      photoCount: counts.get(entry.dorsalNumber) ?? 0,
    })),
    cursor: encodeCursor(page.cursor),
  };
}

/** Removes the event's start list: from then on every read is published again (after a re-index for processed photos). */
export async function deleteStartList(deps: Deps, eventId: number): Promise<StartListDeleteResponse> {
  const event = await getEvent(deps, eventId);
  const deleted = await deps.startLists.remove(eventId);
  await subscribeStartList(deps, eventId, []);
  return { deleted, processedPhotos: event.photoCount };
}

/** The name the event's start list gives a bib, shown to the athlete beside their photos; null without one. */
export async function participantNameOf(deps: Deps, eventId: number, bib: string): Promise<string | null> {
  const bibOnList = normaliseBib(bib);
  return (await deps.startLists.entries(eventId, [bibOnList])).get(bibOnList)?.name ?? null;
}
