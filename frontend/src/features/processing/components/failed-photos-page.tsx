import { Box, Button, HStack, Spinner, Stack, Table, Text } from "@chakra-ui/react";
import type { FailedPhotoDto } from "@dorsal/shared";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { EmptyState } from "../../../components/ui/empty-state";
import { EventSelect } from "../../../components/ui/event-select";
import { CheckIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { LoadMoreButton } from "../../../components/ui/load-more-button";
import { PageHeader } from "../../../components/ui/page-header";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { toaster } from "../../../components/ui/toaster";
import { formatCount, formatDateTime } from "../../../lib/format";
import { useEvents } from "../../../lib/queries/events";
import { useFailedPhotos, useRerunFailed } from "../api/failed-photos";

function FailedPhotoRow({ photo, onRetry, busy }: { photo: FailedPhotoDto; onRetry: () => void; busy: boolean }) {
  return (
    <Table.Row data-testid="failed-photo">
      <Table.Cell width="24" whiteSpace="normal">
        <Box
          width="20"
          height="16"
          bg="gray.100"
          borderRadius="sm"
          overflow="hidden"
          display="flex"
          alignItems="center"
        >
          <ThumbnailImage url={photo.thumbnailUrl} />
        </Box>
      </Table.Cell>
      <Table.Cell>
        <Text fontWeight="medium" wordBreak="break-all">
          {photo.originalFilename}
        </Text>
        <Text textStyle="xs" color="fg.muted">
          {photo.attempts === 1 ? "1 intento" : `${formatCount(photo.attempts)} intentos`}
        </Text>
      </Table.Cell>
      <Table.Cell>{photo.eventName ?? `Evento ${photo.eventId}`}</Table.Cell>
      <Table.Cell color="red.700" textStyle="sm" whiteSpace="normal" minW="56">
        {/* Engine messages can be long: three lines here, the whole text on hover. */}
        <Text lineClamp={3} title={photo.failureReason ?? undefined}>
          {photo.failureReason ?? "Error desconocido"}
        </Text>
      </Table.Cell>
      <Table.Cell whiteSpace="nowrap">{photo.failedAt ? formatDateTime(photo.failedAt) : "—"}</Table.Cell>
      <Table.Cell textAlign="end">
        <Button
          size="sm"
          variant="outline"
          onClick={onRetry}
          loading={busy}
          aria-label={`Reintentar ${photo.originalFilename}`}
        >
          Reintentar
        </Button>
      </Table.Cell>
    </Table.Row>
  );
}

function ConfirmRetryAll({
  open,
  count,
  onConfirm,
  onClose,
}: {
  open: boolean;
  count: number;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="¿Reintentar todas las fotos con error?"
      confirmLabel="Reintentar todas"
      onConfirm={onConfirm}
      colorPalette="blue"
    >
      <Text>Se procesarán de nuevo {formatCount(count)} foto(s). Las que vuelvan a fallar seguirán en esta lista.</Text>
    </ConfirmDialog>
  );
}

/**
 * The dead-letter list: photos the pipeline could not process, with their reason, re-run one by one
 * or all at once (per event, following the server's batches).
 */
export function FailedPhotosPage() {
  const [params, setParams] = useSearchParams();
  const eventId = params.get("eventId") ? Number(params.get("eventId")) : undefined;
  const events = useEvents();
  const failed = useFailedPhotos(eventId);
  const rerun = useRerunFailed();
  const [retrying, setRetrying] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const photos = failed.data?.pages.flatMap((page) => page.photos) ?? [];
  const failedEvents = (events.data ?? []).filter(
    (event) => event.failedPhotos > 0 && (eventId === undefined || event.id === eventId),
  );
  const failedTotal = failedEvents.reduce((sum, event) => sum + event.failedPhotos, 0);
  // The events' counters may lag the list just loaded: every event shown is included as well.
  const targetEvents = [
    ...new Set([...failedEvents.map((event) => event.id), ...photos.map((photo) => photo.eventId)]),
  ];

  const retryOne = (photo: FailedPhotoDto) => {
    setRetrying(photo.id);
    rerun.mutate(
      { photoIds: [photo.id] },
      {
        onSuccess: () => toaster.create({ type: "success", title: `${photo.originalFilename}: reintento en curso` }),
        onSettled: () => setRetrying(null),
      },
    );
  };

  const retryAll = async () => {
    setConfirming(false);
    try {
      let requeued = 0;
      // One event at a time: the server re-runs an event's failures in bounded batches.
      for (const id of targetEvents) requeued += await rerun.mutateAsync({ eventId: id });
      toaster.create({ type: "success", title: `${formatCount(requeued)} foto(s) enviadas a procesar de nuevo` });
    } catch {
      // The query client reported the failure; the events after it are left for another try.
    }
  };

  return (
    <Box>
      <PageHeader
        title="Fotos con errores"
        subtitle="Fotos que no se pudieron procesar: revisa el motivo y reintenta"
        actions={
          <Button
            colorPalette="blue"
            onClick={() => setConfirming(true)}
            disabled={photos.length === 0 || rerun.isPending}
            loading={rerun.isPending && retrying === null}
          >
            Reintentar todas
          </Button>
        }
      />
      <Box maxW="sm" mb="6">
        <EventSelect
          label="Filtrar por evento"
          emptyLabel="Todos los eventos"
          events={events.data ?? []}
          value={eventId ?? null}
          onChange={(id) => setParams(id === null ? {} : { eventId: String(id) })}
        />
      </Box>

      {failed.isPending ? (
        <HStack gap="3" py="8" justify="center">
          <Spinner />
          <Text>Cargando fotos con errores...</Text>
        </HStack>
      ) : failed.isError ? (
        <LoadError title="Error cargando las fotos con errores" query={failed} />
      ) : photos.length === 0 ? (
        <EmptyState
          icon={<CheckIcon />}
          title="No hay fotos con errores"
          description="Todas las fotos recibidas se procesaron o siguen en proceso."
        />
      ) : (
        <Stack gap="4">
          <TableScrollArea label="Fotos con errores" borderWidth="1px" borderRadius="md" bg="white">
            <Table.Root size="sm" aria-label="Fotos con errores">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Vista previa</Table.ColumnHeader>
                  <Table.ColumnHeader>Archivo</Table.ColumnHeader>
                  <Table.ColumnHeader>Evento</Table.ColumnHeader>
                  <Table.ColumnHeader>Motivo</Table.ColumnHeader>
                  <Table.ColumnHeader>Falló</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Acciones</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {photos.map((photo) => (
                  <FailedPhotoRow
                    key={photo.id}
                    photo={photo}
                    busy={retrying === photo.id}
                    onRetry={() => retryOne(photo)}
                  />
                ))}
              </Table.Body>
            </Table.Root>
          </TableScrollArea>
          <LoadMoreButton list={failed} />
        </Stack>
      )}
      <ConfirmRetryAll
        open={confirming}
        count={Math.max(failedTotal, photos.length)}
        onConfirm={() => void retryAll()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
