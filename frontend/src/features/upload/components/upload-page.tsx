import { Alert, Box, Button, Card, Checkbox, HStack, List, Progress, Skeleton, Stack, Text } from "@chakra-ui/react";
import { type EventDto, messages } from "@dorsal/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EventSelect } from "../../../components/ui/event-select";
import { PageHeader } from "../../../components/ui/page-header";
import { formatBytes, formatCount } from "../../../lib/format";
import { type SessionUser, useSession } from "../../../lib/session";
import { eventQueryOptions } from "../../events/api/get-event";
import { newestEvent, useEvents } from "../../events/api/get-events";
import { useMyAssignments } from "../../users/api/assignments";
import { uploadCancelledMessage } from "../api/direct-upload";
import { uploadsAtOnce } from "../api/upload-settings";
import { type UploadRun, useUploader } from "../hooks/use-uploader";
import { PhotoDropZone } from "./photo-drop-zone";
import { ProcessingStatus, type ProcessingWatch } from "./processing-status";
import { SelectedPhotosGrid } from "./selected-photos-grid";
import { ZipUploadCard } from "./zip-upload-card";

/**
 * Spec §2.5: photographers start on their assigned event (or, once it was taken from them, on the
 * newest event they still have), admins on the newest one.
 */
function defaultEventId(events: EventDto[], user: SessionUser | null): number | null {
  if (user?.role === "photographer" && events.some((event) => event.id === user.assignedEventId)) {
    return user.assignedEventId;
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
              Siguen seleccionadas: pulsa «Reanudar subida» para reintentar.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </Stack>
  );
}

type RunKind = "quick" | "batch" | "force" | "resume";

const pickAgainMessage =
  "Vuelve a seleccionar las fotos marcadas: eran muy grandes para guardarlas en el navegador. La subida sigue donde quedó.";

export function UploadPage() {
  const user = useSession();
  const events = useEvents();
  // Photographers are offered only the events assigned to them: the server refuses any other.
  const photographerId = user?.role === "photographer" ? user.id : null;
  const assignments = useMyAssignments(photographerId);
  const assigned = new Set(assignments.data?.map((assignment) => assignment.eventId));
  const offered = photographerId ? events.data?.filter((event) => assigned.has(event.id)) : events.data;
  const loadingEvents = events.isPending || (photographerId !== null && assignments.isPending);
  const eventsError = events.error ?? (photographerId ? assignments.error : null);
  const queryClient = useQueryClient();
  const uploader = useUploader();
  const [chosenEventId, setChosenEventId] = useState<number | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [rejections, setRejections] = useState<string[]>([]);
  const [lastRun, setLastRun] = useState<UploadRun | null>(null);
  const [watch, setWatch] = useState<ProcessingWatch | null>(null);
  const [activeRun, setActiveRun] = useState<RunKind | null>(null);
  // Spec §9: phones compress before sending unless the quick-upload box is ticked.
  const [skipCompression, setSkipCompression] = useState(false);

  const eventId = chosenEventId !== undefined ? chosenEventId : defaultEventId(offered ?? [], user);
  const pending = uploader.photos.filter((photo) => photo.status !== "success");

  const addFiles = (files: File[]) => {
    setProblem(null);
    setRejections(uploader.add(files));
  };

  const run = async (kind: RunKind) => {
    setLastRun(null);
    setRejections([]);
    if (kind === "resume" && !uploader.sessionHeld) {
      setProblem(messages.noSessionToResume);
      return;
    }
    if (uploader.ghosts) {
      setProblem(pickAgainMessage);
      return;
    }
    if (pending.length === 0) {
      setProblem(messages.selectPhoto);
      return;
    }
    if (eventId === null) {
      setProblem(kind === "resume" ? messages.selectEventToResume : messages.selectEvent);
      return;
    }
    setProblem(null);
    setActiveRun(kind);
    // Counted before uploading so the progress below can tell when this upload is included.
    const before = await queryClient
      .fetchQuery({ ...eventQueryOptions(eventId), staleTime: 0 })
      .then((event) => event.totalPhotos)
      .catch(() => null);
    const compress = uploader.phone && kind !== "quick" && !skipCompression;
    const result =
      kind === "resume"
        ? await uploader.resume(eventId)
        : await uploader.start({ eventId, forceDuplicates: kind === "force", compress });
    setActiveRun(null);
    setLastRun(result);
    if (result.outcome.uploaded > 0) {
      setWatch({
        eventId,
        expectedTotal: before === null ? null : before + result.outcome.uploaded,
        since: Date.now(),
      });
    }
  };

  const busy = uploader.uploading;
  return (
    <Box>
      <PageHeader title="Carga Masiva de Fotos" subtitle="Sube las fotos del evento; detectamos los dorsales por ti" />
      <Stack gap="6">
        <Card.Root>
          <Card.Body gap="5">
            {loadingEvents ? (
              <Skeleton height="16" />
            ) : eventsError ? (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>Error cargando eventos</Alert.Title>
                  <Alert.Description>{eventsError.message}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            ) : (
              <EventSelect
                events={offered ?? []}
                value={eventId}
                onChange={(id) => {
                  setChosenEventId(id);
                  if (problem === messages.selectEvent || problem === messages.selectEventToResume) setProblem(null);
                }}
                disabled={busy}
                invalid={problem === messages.selectEvent || problem === messages.selectEventToResume}
              />
            )}
            <PhotoDropZone onFiles={addFiles} disabled={busy} phone={uploader.phone} />
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

        {uploader.photos.length > 0 && (
          <Card.Root>
            <Card.Body gap="4">
              {busy && (
                <Box aria-live="polite">
                  <HStack justify="space-between" mb="1" textStyle="sm">
                    <Text>Subiendo… {uploader.progress.percent}%</Text>
                    <Text color="fg.muted">
                      {formatBytes(uploader.progress.loaded)} de {formatBytes(uploader.progress.total)}
                    </Text>
                  </HStack>
                  <HStack gap="3">
                    <Progress.Root
                      value={uploader.progress.percent}
                      colorPalette="blue"
                      aria-label="Progreso total"
                      flex="1"
                    >
                      <Progress.Track>
                        <Progress.Range />
                      </Progress.Track>
                    </Progress.Root>
                    <Button size="sm" variant="outline" colorPalette="red" onClick={uploader.cancel}>
                      Cancelar
                    </Button>
                  </HStack>
                </Box>
              )}
              <SelectedPhotosGrid
                photos={uploader.photos}
                onRemove={uploader.remove}
                onClear={uploader.clear}
                locked={busy}
              />
            </Card.Body>
          </Card.Root>
        )}

        <Stack gap="3" align={{ base: "stretch", sm: "flex-end" }}>
          {uploader.phone && (
            <Checkbox.Root
              checked={skipCompression}
              onCheckedChange={(change) => setSkipCompression(change.checked === true)}
              disabled={busy}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>Subida rápida (sin comprimir las fotos)</Checkbox.Label>
            </Checkbox.Root>
          )}
          <HStack gap="3" wrap="wrap" justify={{ base: "stretch", sm: "flex-end" }}>
            {uploader.sessionHeld && (
              <Button
                variant="outline"
                colorPalette="blue"
                onClick={() => run("resume")}
                disabled={busy}
                flex={{ base: "1", sm: "initial" }}
              >
                Reanudar subida
              </Button>
            )}
            <Button
              variant="outline"
              onClick={() => run("force")}
              loading={activeRun === "force"}
              disabled={busy}
              title="Sube también las fotos que el evento ya tiene"
              flex={{ base: "1", sm: "initial" }}
            >
              Forzar subida
            </Button>
            <Button
              variant="outline"
              colorPalette="blue"
              onClick={() => run("quick")}
              loading={activeRun === "quick"}
              loadingText="Subiendo..."
              disabled={busy}
              flex={{ base: "1", sm: "initial" }}
            >
              Subida rápida
            </Button>
            <Button
              colorPalette="blue"
              size="lg"
              onClick={() => run("batch")}
              loading={activeRun === "batch" || activeRun === "resume"}
              loadingText="Subiendo..."
              disabled={busy}
              flex={{ base: "1", sm: "initial" }}
            >
              {pending.length > 0 ? `Subir ${photos(pending.length)} por lotes` : "Subir por lotes"}
            </Button>
          </HStack>
        </Stack>

        {watch && <ProcessingStatus watch={watch} />}

        <ZipUploadCard eventId={eventId} />

        <Card.Root variant="subtle" size="sm">
          <Card.Body>
            <Text fontWeight="semibold" mb="2">
              Cómo funciona
            </Text>
            <List.Root as="ol" ps="5" gap="1" textStyle="sm" color="fg.muted">
              <List.Item>Elige el evento al que pertenecen las fotos.</List.Item>
              <List.Item>Agrega las fotos desde tu equipo, tu galería o la cámara.</List.Item>
              <List.Item>
                Pulsa «Subir por lotes» ({uploadsAtOnce(uploader.phone)} fotos a la vez): si la conexión se corta o
                cierras la pestaña, «Reanudar subida» sigue donde quedó, y los dorsales se detectan solos.
              </List.Item>
            </List.Root>
          </Card.Body>
        </Card.Root>
      </Stack>
    </Box>
  );
}
