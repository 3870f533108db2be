import { Badge, Box, Button, HStack, Progress, Skeleton, Stack, Text } from "@chakra-ui/react";
import type { EventDto, EventRecountProgress } from "@dorsal/shared";
import { useQuery } from "@tanstack/react-query";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { CalendarIcon, TagIcon, UserIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { formatCount, formatEventDate } from "../../../lib/format";
import { eventsQueryOptions } from "../../../lib/queries/events";
import { AthleteAccessSwitch } from "./athlete-access-switch";
import { DeleteEventDialog } from "./delete-event-dialog";
import { EventStatusBadge } from "./event-status-badge";
import { FreePhotosButton } from "./free-photos-button";

/** How often the list is asked again while a recount runs: it moves a page of 200 photos or bibs at a time. */
const recountRefreshMs = 5000;

const recountWords: Record<EventRecountProgress["phase"], string> = {
  photos: "Recontando las fotos",
  bibs: "Recontando los dorsales",
  replace: "Guardando el recuento",
};

/** The event's counters being recounted in the background: until it ends they may be a little off. */
function RecountProgress({ name, recount }: { name: string; recount: EventRecountProgress }) {
  return (
    <Box mt="2">
      <Text textStyle="sm" color="fg.muted">
        {recountWords[recount.phase]}… {recount.percent} %
      </Text>
      <Progress.Root value={recount.percent} size="xs" colorPalette="blue" mt="1">
        <Progress.Track aria-label={`Progreso del recuento de ${name}`}>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    </Box>
  );
}

function EventRow({ event }: { event: EventDto }) {
  return (
    <Box as="li" listStyleType="none" p="4" borderWidth="1px" borderRadius="lg" bg="white">
      <HStack justify="space-between" align="flex-start" gap="3">
        <Box minW="0">
          <Text fontWeight="semibold" truncate>
            {event.name}
          </Text>
          <Text color="fg.muted" textStyle="sm">
            {formatEventDate(event.date)}
            {event.location && ` · ${event.location}`}
          </Text>
        </Box>
        <HStack gap="2" wrap="wrap" justify="flex-end">
          {event.freePhotosEnabled && <Badge colorPalette="purple">Fotos gratis</Badge>}
          <EventStatusBadge status={event.status} />
        </HStack>
      </HStack>
      <HStack gap="4" mt="2" textStyle="sm" color="fg.muted" wrap="wrap">
        <Text>{formatCount(event.expectedParticipants)} participantes esperados</Text>
        <Text>
          {/* Copies are refused, never processed: counted apart, as the dashboard does. */}
          {formatCount(event.photoCount)} de {formatCount(event.totalPhotos - event.duplicatePhotos)} fotos procesadas
          {event.duplicatePhotos > 0 &&
            ` · ${formatCount(event.duplicatePhotos)} ${event.duplicatePhotos === 1 ? "repetida" : "repetidas"}`}
        </Text>
      </HStack>
      {event.recount && <RecountProgress name={event.name} recount={event.recount} />}
      <HStack mt="3" gap="2" wrap="wrap">
        <Button asChild size="xs" variant="outline" colorPalette="blue">
          <RouterLink to={`/events/${event.id}/dorsales`} aria-label={`Revisar dorsales de ${event.name}`}>
            <TagIcon /> Revisar dorsales
          </RouterLink>
        </Button>
        <Button asChild size="xs" variant="outline">
          <RouterLink to={`/events/${event.id}/inscritos`} aria-label={`Lista de inscritos de ${event.name}`}>
            <UserIcon /> Lista de inscritos
          </RouterLink>
        </Button>
        <FreePhotosButton event={event} />
        <DeleteEventDialog event={event} />
      </HStack>
      <Box mt="3">
        <AthleteAccessSwitch event={event} />
      </Box>
    </Box>
  );
}

export function EventList() {
  const events = useQuery({
    ...eventsQueryOptions(),
    refetchInterval: (query) => (query.state.data?.some((event) => event.recount) ? recountRefreshMs : false),
  });

  if (events.isPending) {
    return (
      <Stack gap="3" aria-busy="true" aria-label="Cargando eventos">
        <Skeleton height="20" />
        <Skeleton height="20" />
        <Skeleton height="20" />
      </Stack>
    );
  }
  if (events.isError) {
    return <LoadError title="Error cargando eventos" query={events} />;
  }
  if (events.data.length === 0) {
    return (
      <EmptyState
        icon={<CalendarIcon />}
        title="No hay eventos"
        description="Crea el primer evento para empezar a subir fotos."
      />
    );
  }
  const newestFirst = [...events.data].sort((a, b) => b.id - a.id);
  return (
    <Stack as="ul" gap="3" aria-label="Eventos">
      {newestFirst.map((event) => (
        <EventRow key={event.id} event={event} />
      ))}
    </Stack>
  );
}
