import { Button, List, Skeleton } from "@chakra-ui/react";
import type { EventDto } from "@dorsal/shared";
import { EmptyState } from "../../../components/ui/empty-state";
import { SearchIcon } from "../../../components/ui/icons";
import { formatCount } from "../../../lib/format";
import { useEvents } from "../../../lib/queries/events";

const photos = (count: number) => `${formatCount(count)} ${count === 1 ? "foto" : "fotos"}`;

/** Photos the event received that are neither searchable yet nor finished (failed or refused as copies). */
const inProgress = (event: EventDto) =>
  Math.max(0, event.totalPhotos - event.photoCount - event.failedPhotos - event.duplicatePhotos);

function EventState({ event }: { event: EventDto }) {
  const pending = inProgress(event);
  return (
    <List.Item>
      Este evento tiene {photos(event.photoCount)} {event.photoCount === 1 ? "publicada" : "publicadas"}.{" "}
      {pending > 0
        ? `Hay ${photos(pending)} más en proceso: vuelve a buscar en unos minutos.`
        : "Si la carrera fue hace poco, puede que aún estén llegando fotos: vuelve a buscar más tarde."}
    </List.Item>
  );
}

/**
 * Spec §8 'Sin resultados' ('No se encontraron fotos para este dorsal'), with what to try next:
 * the number itself, the event's bibs that do have photos, and whether more photos are coming.
 */
export function NoPhotos({
  eventId,
  dorsalNumber,
  onBrowse,
}: {
  eventId: number;
  dorsalNumber: string;
  /** Shows the event's bib grid. */
  onBrowse: () => void;
}) {
  const events = useEvents();
  const event = events.data?.find((candidate) => candidate.id === eventId);
  return (
    <EmptyState
      icon={<SearchIcon />}
      title="Sin resultados"
      description="No se encontraron fotos para este dorsal"
      action={
        <Button variant="outline" alignSelf="center" onClick={onBrowse}>
          Ver los dorsales con fotos
        </Button>
      }
    >
      <List.Root ps="5" gap="1.5" textStyle="sm" color="fg.muted">
        <List.Item>Revisa que {dorsalNumber} sea el número de tu dorsal (sin letras ni espacios).</List.Item>
        {event?.freePhotosEnabled && (
          <List.Item>
            Las fotos de este evento son gratis: busca tu dorsal en la lista y descárgalas sin costo.
          </List.Item>
        )}
        <List.Item>
          Mira la lista de dorsales que tienen fotos: el tuyo puede estar mal leído en la foto, por ejemplo cubierto por
          un brazo.
        </List.Item>
        {events.isPending ? <Skeleton height="5" /> : event && <EventState event={event} />}
      </List.Root>
    </EmptyState>
  );
}
