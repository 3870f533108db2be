import { Alert, Badge, Box, Button, Grid, HStack, IconButton, Stack, Tabs, Text } from "@chakra-ui/react";
import { idParam } from "@dorsal/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { ArrowLeftIcon, RefreshIcon, UserIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { formatCount, formatEventDate } from "../../../lib/format";
import { useEvent } from "../../../lib/queries/events";
import { eventPhotosKey, type PhotoFilter, useEventPhotos } from "../api/get-event-photos";
import { unbibbedCountLabel } from "../api/photo-pages";
import { PhotoList } from "./photo-list";
import { RecognitionSettings } from "./recognition-settings";

function BackToEvents() {
  return (
    <Button asChild variant="outline" size="sm" alignSelf={{ base: "flex-start", md: "center" }}>
      <RouterLink to="/events">
        <ArrowLeftIcon /> Eventos
      </RouterLink>
    </Button>
  );
}

function CountBadge({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return null;
  return (
    <Badge size="sm" variant="surface" colorPalette="gray" fontVariantNumeric="tabular-nums">
      {value}
    </Badge>
  );
}

function BibReview({ eventId }: { eventId: number }) {
  const event = useEvent(eventId);
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<PhotoFilter>("sin-dorsal");
  // Mounted here as well as in its tab, so the tab's count is known whichever tab is open.
  const unbibbed = useEventPhotos(eventId, "sin-dorsal");
  // While another tab is open, an edit there can move photos in or out of 'Sin dorsal': reload it
  // out of sight so its count is right. In view, it waits (see `reload`).
  const { isStale: unbibbedStale, isFetching: unbibbedFetching, refetch: refetchUnbibbed } = unbibbed;
  useEffect(() => {
    if (tab !== "sin-dorsal" && unbibbedStale && !unbibbedFetching) void refetchUnbibbed();
  }, [tab, unbibbedStale, unbibbedFetching, refetchUnbibbed]);

  if (event.isError && !event.data) {
    return (
      <Stack gap="4">
        <PageHeader title="Revisión de Dorsales" actions={<BackToEvents />} />
        <LoadError title="Error cargando el evento" query={event} />
      </Stack>
    );
  }

  const data = event.data;
  const pending = data ? data.totalPhotos - data.photoCount - data.failedPhotos - data.duplicatePhotos : 0;

  // Edits only mark the lists stale (so a just-tagged photo stays in view); opening a tab or
  // pressing refresh is when a stale list is reloaded.
  const reload = (filter: PhotoFilter, onlyStale: boolean) =>
    queryClient.refetchQueries({ queryKey: eventPhotosKey(eventId, filter), ...(onlyStale ? { stale: true } : {}) });

  return (
    <Box>
      <PageHeader
        title="Revisión de Dorsales"
        subtitle={data ? `${data.name} · ${formatEventDate(data.date)}` : undefined}
        actions={
          <HStack gap="2" wrap="wrap">
            <BackToEvents />
            <Button asChild variant="outline" size="sm">
              <RouterLink to={`/events/${eventId}/inscritos`}>
                <UserIcon /> Lista de inscritos
              </RouterLink>
            </Button>
          </HStack>
        }
      />
      <Grid templateColumns={{ base: "minmax(0, 1fr)", lg: "minmax(0, 1fr) 20rem" }} gap="6" alignItems="start">
        <Box as="section" aria-label="Fotos del evento" minW="0">
          {pending > 0 && (
            <Alert.Root status="info" mb="4" size="sm">
              <Alert.Indicator />
              <Alert.Title>
                {formatCount(pending)} {pending === 1 ? "foto se está" : "fotos se están"} procesando todavía.
              </Alert.Title>
            </Alert.Root>
          )}
          {data && data.duplicatePhotos > 0 && (
            <Alert.Root status="warning" mb="4" size="sm">
              <Alert.Indicator />
              <Alert.Title>
                {data.duplicatePhotos === 1
                  ? "1 foto subida ya estaba en el evento: aparece en «Todas» como Repetida y no se publica."
                  : `${formatCount(data.duplicatePhotos)} fotos subidas ya estaban en el evento: aparecen en «Todas» como Repetidas y no se publican.`}
              </Alert.Title>
            </Alert.Root>
          )}
          <Tabs.Root
            value={tab}
            onValueChange={(details) => {
              const next = details.value as PhotoFilter;
              setTab(next);
              void reload(next, true);
            }}
            lazyMount
            unmountOnExit
            variant="enclosed"
          >
            <HStack justify="space-between" gap="2" mb="4">
              <Tabs.List>
                <Tabs.Trigger value="sin-dorsal">
                  Sin dorsal <CountBadge value={unbibbedCountLabel(unbibbed.data, unbibbed.hasNextPage)} />
                </Tabs.Trigger>
                <Tabs.Trigger value="todas">
                  Todas <CountBadge value={data ? formatCount(data.totalPhotos) : null} />
                </Tabs.Trigger>
              </Tabs.List>
              <IconButton
                aria-label="Actualizar fotos"
                title="Actualizar fotos"
                variant="ghost"
                size="sm"
                onClick={() => {
                  void reload(tab, false);
                  void event.refetch();
                }}
              >
                <RefreshIcon />
              </IconButton>
            </HStack>
            <Text textStyle="sm" color="fg.muted" mb="4">
              <Text as="span" color="blue.700" fontWeight="semibold">
                Azul
              </Text>
              : detectado automáticamente, con su confianza.{" "}
              <Text as="span" color="purple.700" fontWeight="semibold">
                Morado
              </Text>
              : agregado a mano.{" "}
              <Text as="span" color="orange.700" fontWeight="semibold">
                Naranja
              </Text>
              : leído pero fuera de la lista de inscritos, sin publicar. Las correcciones manuales se mantienen al
              re-indexar.
            </Text>
            <Tabs.Content value="sin-dorsal" p="0">
              <PhotoList eventId={eventId} filter="sin-dorsal" />
            </Tabs.Content>
            <Tabs.Content value="todas" p="0">
              <PhotoList eventId={eventId} filter="todas" />
            </Tabs.Content>
          </Tabs.Root>
        </Box>
        <RecognitionSettings eventId={eventId} totalPhotos={data?.totalPhotos} />
      </Grid>
    </Box>
  );
}

/** Issue 3: an organizer reviews an event's bibs — photos without one, corrections, re-indexing. */
export function BibReviewPage() {
  const params = useParams();
  const eventId = idParam.safeParse(params.eventId);
  if (!eventId.success) {
    return (
      <Stack gap="4">
        <PageHeader title="Revisión de Dorsales" actions={<BackToEvents />} />
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>Evento no encontrado</Alert.Title>
        </Alert.Root>
      </Stack>
    );
  }
  // A new key per event: nothing typed for one event carries over to another.
  return <BibReview key={eventId.data} eventId={eventId.data} />;
}
