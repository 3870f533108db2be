import { Button, Card, Heading, HStack, Link, Progress, Skeleton, Stack, Text } from "@chakra-ui/react";
import type { EventDto, EventProcessingDto } from "@dorsal/shared";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { LoadError } from "../../../components/ui/load-error";
import { formatCount } from "../../../lib/format";
import { useEvents } from "../../../lib/queries/events";
import { useEventsProcessing } from "../api/event-processing";

function EventProgress({ event, progress }: { event: EventDto; progress: EventProcessingDto | undefined }) {
  if (!progress) return <Skeleton height="12" />;
  // Copies of photos the event already had are not its photos: never counted as still to process.
  const photos = progress.totalPhotos - progress.duplicatePhotos;
  const settled = progress.processedPhotos + progress.failedPhotos;
  const percent = photos === 0 ? 0 : Math.round((settled / photos) * 100);
  const running = progress.pendingPhotos > 0;
  return (
    <Stack gap="1.5" data-testid="processing-event">
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Text fontWeight="medium">{event.name}</Text>
        <Text textStyle="sm" color="fg.muted">
          Procesadas {formatCount(progress.processedPhotos)} de {formatCount(photos)}
          {progress.duplicatePhotos > 0
            ? ` · ${formatCount(progress.duplicatePhotos)} ${progress.duplicatePhotos === 1 ? "repetida" : "repetidas"}`
            : ""}
          {running && progress.photosPerMinute !== null ? ` · ${progress.photosPerMinute} fotos/min` : ""}
        </Text>
      </HStack>
      <Progress.Root
        value={percent}
        size="sm"
        colorPalette={running ? "blue" : progress.failedPhotos > 0 ? "orange" : "green"}
        striped={running}
        animated={running}
      >
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {progress.failedPhotos > 0 && (
        <Link asChild textStyle="sm" color="red.700">
          <RouterLink to={`/processing?eventId=${event.id}`}>
            {formatCount(progress.failedPhotos)} con errores
          </RouterLink>
        </Link>
      )}
    </Stack>
  );
}

/**
 * 'Procesamiento': each active event's progress from its counters, refreshed every few seconds
 * only while it still has photos pending.
 */
export function ProcessingCard() {
  const events = useEvents();
  const active = (events.data ?? []).filter((event) => event.status === "active");
  const progress = useEventsProcessing(active.map((event) => event.id));
  return (
    <Card.Root as="section" aria-labelledby="processing-card-title" mb="8">
      <Card.Header>
        <HStack justify="space-between" gap="3">
          <Heading as="h2" size="lg" id="processing-card-title">
            Procesamiento
          </Heading>
          <Link asChild textStyle="sm" color="blue.700">
            <RouterLink to="/processing">Fotos con errores</RouterLink>
          </Link>
        </HStack>
      </Card.Header>
      <Card.Body>
        {events.isPending ? (
          <Skeleton height="12" />
        ) : events.isError ? (
          <LoadError title="Error cargando eventos" query={events} />
        ) : active.length === 0 ? (
          <EmptyState
            variant="inline"
            title="No hay eventos activos"
            description="Aquí verás el avance de las fotos de cada evento activo mientras se procesan."
            action={
              <Button asChild size="sm" variant="outline">
                <RouterLink to="/events">Ver eventos</RouterLink>
              </Button>
            }
          />
        ) : (
          <Stack gap="5">
            {active.map((event, index) => (
              <EventProgress key={event.id} event={event} progress={progress[index]?.data} />
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
