import { Alert, Box, Button, Card, HStack, List, Progress, Skeleton, Stack, Text } from "@chakra-ui/react";
import { type EventDto, messages } from "@dorsal/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EventSelect } from "../../../components/ui/event-select";
import { PageHeader } from "../../../components/ui/page-header";
import { formatBytes, formatCount } from "../../../lib/format";
import { type SessionUser, useSession } from "../../../lib/session";
import { eventQueryOptions } from "../../events/api/get-event";
import { newestEvent, useEvents } from "../../events/api/get-events";
import { uploadCancelledMessage } from "../api/upload-photos";
import { type UploadRun, useUploadQueue } from "../hooks/use-upload-queue";
import { PhotoDropZone } from "./photo-drop-zone";
import { ProcessingStatus, type ProcessingWatch } from "./processing-status";
import { SelectedPhotosGrid } from "./selected-photos-grid";

/** Spec §2.5: photographers start on their assigned event, admins on the newest one. */
function defaultEventId(events: EventDto[], user: SessionUser | null): number | null {
  if (user?.role === "photographer") {
    return events.some((event) => event.id === user.assignedEventId) ? user.assignedEventId : null;
  }
  return newestEvent(events)?.id ?? null;
}

function photos(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "foto" : "fotos"}`;
}

function RunResult({ run }: { run: UploadRun }) {
  const { uploaded, failed, cancelled } = run.outcome;
  return (
    <Stack gap="3">
      {uploaded > 0 && (
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>¡Fotos subidas!</Alert.Title>
            <Alert.Description>
              Se subieron {photos(uploaded)}. Los dorsales se detectan automáticamente en unos minutos.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {cancelled && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{uploadCancelledMessage}</Alert.Title>
            <Alert.Description>Las fotos que faltaban siguen seleccionadas para subirlas después.</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {failed > 0 && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>No se pudieron subir {photos(failed)}</Alert.Title>
            <Alert.Description>
              <List.Root ps="4">
                {run.errors.map((error) => (
                  <List.Item key={error}>{error}</List.Item>
                ))}
              </List.Root>
              Siguen seleccionadas: pulsa «Subir» para reintentar.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </Stack>
  );
}

export function UploadPage() {
  const user = useSession();
  const events = useEvents();
  const queryClient = useQueryClient();
  const queue = useUploadQueue();
  const [chosenEventId, setChosenEventId] = useState<number | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [rejections, setRejections] = useState<string[]>([]);
  const [lastRun, setLastRun] = useState<UploadRun | null>(null);
  const [watch, setWatch] = useState<ProcessingWatch | null>(null);

  const eventId = chosenEventId !== undefined ? chosenEventId : defaultEventId(events.data ?? [], user);

  const addFiles = (files: File[]) => {
    setProblem(null);
    setRejections(queue.add(files));
  };

  const upload = async () => {
    setLastRun(null);
    setRejections([]);
    if (queue.photos.length === 0) {
      setProblem(messages.selectPhoto);
      return;
    }
    if (eventId === null) {
      setProblem(messages.selectEvent);
      return;
    }
    setProblem(null);
    // Counted before uploading so the progress below can tell when this upload is included.
    const before = await queryClient
      .fetchQuery({ ...eventQueryOptions(eventId), staleTime: 0 })
      .then((event) => event.totalPhotos)
      .catch(() => null);
    const run = await queue.start(eventId);
    setLastRun(run);
    if (run.outcome.uploaded > 0) {
      setWatch({
        eventId,
        expectedTotal: before === null ? null : before + run.outcome.uploaded,
        since: Date.now(),
      });
    }
  };

  return (
    <Box>
      <PageHeader title="Carga Masiva de Fotos" subtitle="Sube las fotos del evento; detectamos los dorsales por ti" />
      <Stack gap="6">
        <Card.Root>
          <Card.Body gap="5">
            {events.isPending ? (
              <Skeleton height="16" />
            ) : events.isError ? (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>Error cargando eventos</Alert.Title>
                  <Alert.Description>{events.error.message}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            ) : (
              <EventSelect
                events={events.data}
                value={eventId}
                onChange={(id) => {
                  setChosenEventId(id);
                  if (problem === messages.selectEvent) setProblem(null);
                }}
                disabled={queue.uploading}
                invalid={problem === messages.selectEvent}
              />
            )}
            <PhotoDropZone onFiles={addFiles} disabled={queue.uploading} />
          </Card.Body>
        </Card.Root>

        {problem && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{problem}</Alert.Title>
          </Alert.Root>
        )}
        {rejections.length > 0 && (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Algunos archivos no se agregaron</Alert.Title>
              <Alert.Description>
                <List.Root ps="4">
                  {rejections.map((line) => (
                    <List.Item key={line}>{line}</List.Item>
                  ))}
                </List.Root>
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {lastRun && <RunResult run={lastRun} />}

        {queue.photos.length > 0 && (
          <Card.Root>
            <Card.Body gap="4">
              {queue.uploading && (
                <Box aria-live="polite">
                  <HStack justify="space-between" mb="1" textStyle="sm">
                    <Text>Subiendo… {queue.progress.percent}%</Text>
                    <Text color="fg.muted">
                      {formatBytes(queue.progress.loaded)} de {formatBytes(queue.progress.total)}
                    </Text>
                  </HStack>
                  <Progress.Root value={queue.progress.percent} colorPalette="blue" aria-label="Progreso total">
                    <Progress.Track>
                      <Progress.Range />
                    </Progress.Track>
                  </Progress.Root>
                </Box>
              )}
              <SelectedPhotosGrid
                photos={queue.photos}
                onRemove={queue.remove}
                onClear={queue.clear}
                locked={queue.uploading}
              />
            </Card.Body>
          </Card.Root>
        )}

        <HStack gap="3" justify={{ base: "stretch", sm: "flex-end" }}>
          {queue.uploading && (
            <Button variant="outline" colorPalette="red" onClick={queue.cancel} flex={{ base: "1", sm: "initial" }}>
              Cancelar
            </Button>
          )}
          <Button
            colorPalette="blue"
            size="lg"
            onClick={upload}
            loading={queue.uploading}
            loadingText="Subiendo..."
            flex={{ base: "1", sm: "initial" }}
          >
            {queue.photos.length > 0 ? `Subir ${photos(queue.photos.length)}` : "Subir fotos"}
          </Button>
        </HStack>

        {watch && <ProcessingStatus watch={watch} />}

        <Card.Root variant="subtle" size="sm">
          <Card.Body>
            <Text fontWeight="semibold" mb="2">
              Cómo funciona
            </Text>
            <List.Root as="ol" ps="5" gap="1" textStyle="sm" color="fg.muted">
              <List.Item>Elige el evento al que pertenecen las fotos.</List.Item>
              <List.Item>Agrega las fotos desde tu equipo, tu galería o la cámara.</List.Item>
              <List.Item>Pulsa «Subir»: las fotos se procesan y los dorsales se detectan solos.</List.Item>
            </List.Root>
          </Card.Body>
        </Card.Root>
      </Stack>
    </Box>
  );
}
