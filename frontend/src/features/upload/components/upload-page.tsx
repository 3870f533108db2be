import { Alert, Box, Button, Card, Checkbox, HStack, List, Progress, Skeleton, Stack, Text } from "@chakra-ui/react";
import { type EventDto, limits, messages } from "@dorsal/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EventSelect } from "../../../components/ui/event-select";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { formatBytes, formatCount } from "../../../lib/format";
import { newestEvent, useEvents } from "../../../lib/queries/events";
import { type SessionUser, useSession } from "../../../lib/session";
import { uploadCancelledMessage } from "../api/direct-upload";
import { useMyAssignments } from "../api/my-assignments";
import { myUploadsKey, startUpload } from "../api/my-uploads";
import { photosLabel } from "../api/photo-label";
import { uploadsAtOnce } from "../api/upload-settings";
import { type UploadRun, useUploader } from "../hooks/use-uploader";
import { DriveImportCard } from "./drive-import-card";
import { MyUploadsCard } from "./my-uploads-card";
import { PhotoDropZone } from "./photo-drop-zone";
import { SelectedPhotosGrid } from "./selected-photos-grid";
import { type FollowedUpload, UploadFollow } from "./upload-follow";
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

const pickAgainMessage =
  "Vuelve a seleccionar las fotos marcadas: eran muy grandes para guardarlas en el navegador. La subida sigue donde quedó.";

/** What went wrong with the transfer itself; what became of the photos sent is the follow's to say. */
function RunProblems({ run }: { run: UploadRun }) {
  const { failed, cancelled } = run.outcome;
  return (
    <Stack gap="3">
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
            <Alert.Title>No se pudieron subir {photosLabel(failed)}</Alert.Title>
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * 'Carga Masiva de Fotos' (spec §2.5). One action sends the chosen photos ('Subir N fotos'),
 * several at a time and resumable; it stays disabled, saying why, until there is an event and a
 * photo. Each press starts an upload the screen then follows to the end of its processing, and the
 * uploader's own history lists it.
 */
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
  const [followed, setFollowed] = useState<FollowedUpload | null>(null);
  const [starting, setStarting] = useState(false);
  /** The upload whose files are on their way now, before the screen follows its processing. */
  const [sendingId, setSendingId] = useState<string | null>(null);
  /** Bumped when a photo upload starts: the ZIP card drops its stale messages then. */
  const [photoRuns, setPhotoRuns] = useState(0);
  // Spec §9: phones compress before sending unless the uploader asks for the originals.
  const [sendOriginals, setSendOriginals] = useState(false);

  const eventId = chosenEventId !== undefined ? chosenEventId : defaultEventId(offered ?? [], user);
  const pending = uploader.photos.filter((photo) => photo.status !== "success");
  const busy = uploader.uploading || starting;

  /** Why 'Subir' cannot be pressed now, said next to it; null when it can. */
  const blockedBecause =
    eventId === null
      ? messages.selectEvent
      : pending.length === 0
        ? messages.selectPhoto
        : uploader.ghosts
          ? pickAgainMessage
          : pending.length > limits.uploadMaxFiles
            ? messages.uploadTooManyFiles
            : null;

  const addFiles = (files: File[]) => {
    setProblem(null);
    setRejections(uploader.add(files));
  };

  const clearMessages = () => {
    setProblem(null);
    setRejections([]);
    setLastRun(null);
    setPhotoRuns((runs) => runs + 1);
  };

  const follow = (run: UploadRun) => {
    const { uploadId } = run;
    if (!uploadId || run.outcome.uploaded === 0) return;
    setFollowed((current) => ({
      uploadId,
      eventId: run.eventId,
      // A resumed run adds to what the same upload already sent from this screen.
      sent: (current?.uploadId === uploadId ? current.sent : 0) + run.outcome.uploaded,
      since: Date.now(),
    }));
  };

  const upload = async () => {
    if (blockedBecause !== null || eventId === null) return;
    clearMessages();
    setStarting(true);
    let uploadId: string;
    try {
      // The upload's total is every photo chosen, fixed before the first byte goes.
      uploadId = (await startUpload(eventId, pending.length)).uploadId;
    } catch (error) {
      setProblem(messageOf(error));
      return;
    } finally {
      setStarting(false);
    }
    setFollowed(null);
    setSendingId(uploadId);
    void queryClient.invalidateQueries({ queryKey: myUploadsKey, exact: true });
    const result = await uploader.start({ eventId, uploadId, compress: uploader.phone && !sendOriginals });
    setSendingId(null);
    setLastRun(result);
    follow(result);
  };

  const resume = async () => {
    if (uploader.ghosts) {
      setProblem(pickAgainMessage);
      return;
    }
    if (eventId === null) {
      setProblem(messages.selectEventToResume);
      return;
    }
    clearMessages();
    const result = await uploader.resume(eventId);
    setLastRun(result);
    follow(result);
  };

  const sending = uploader.uploading;
  return (
    <Box>
      <PageHeader title="Carga Masiva de Fotos" subtitle="Sube las fotos del evento; detectamos los dorsales por ti" />
      <Stack gap="6">
        <Card.Root>
          <Card.Body gap="5">
            {loadingEvents ? (
              <Skeleton height="16" />
            ) : eventsError ? (
              <LoadError
                title="Error cargando eventos"
                message={eventsError.message}
                onRetry={() => {
                  void events.refetch();
                  if (photographerId) void assignments.refetch();
                }}
              />
            ) : (
              <EventSelect
                events={offered ?? []}
                value={eventId}
                onChange={(id) => {
                  setChosenEventId(id);
                  if (problem === messages.selectEventToResume) setProblem(null);
                }}
                disabled={busy}
                invalid={problem === messages.selectEventToResume}
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
        {lastRun && <RunProblems run={lastRun} />}

        {uploader.photos.length > 0 && (
          <Card.Root>
            <Card.Body gap="4">
              {sending && (
                <Box aria-live="polite">
                  <HStack justify="space-between" mb="1" textStyle="sm" wrap="wrap" gap="2">
                    <Text>
                      Subiendo {formatCount(uploader.progress.filesDone)} de {photosLabel(uploader.progress.files)}…{" "}
                      {uploader.progress.percent}%
                    </Text>
                    <Text color="fg.muted">
                      {formatBytes(uploader.progress.loaded)} de {formatBytes(uploader.progress.total)}
                    </Text>
                  </HStack>
                  <HStack gap="3">
                    <Progress.Root value={uploader.progress.percent} colorPalette="blue" flex="1">
                      <Progress.Track aria-label="Progreso de la subida">
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
              checked={sendOriginals}
              onCheckedChange={(change) => setSendOriginals(change.checked === true)}
              disabled={busy}
              alignItems="flex-start"
              maxW={{ sm: "md" }}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control mt="0.5" />
              <Stack gap="0.5">
                <Checkbox.Label>Enviar las fotos originales, sin comprimir</Checkbox.Label>
                <Text textStyle="xs" color="fg.muted">
                  Sin marcar, el celular reduce cada foto grande a 1.920 px antes de enviarla: sube más rápido con datos
                  móviles.
                </Text>
              </Stack>
            </Checkbox.Root>
          )}
          <HStack gap="3" wrap="wrap" justify={{ base: "stretch", sm: "flex-end" }}>
            {uploader.sessionHeld && (
              <Button
                variant="outline"
                colorPalette="blue"
                onClick={resume}
                disabled={busy}
                flex={{ base: "1", sm: "initial" }}
              >
                Reanudar subida
              </Button>
            )}
            <Button
              colorPalette="blue"
              size="lg"
              onClick={upload}
              loading={busy}
              loadingText="Subiendo…"
              disabled={blockedBecause !== null}
              aria-describedby={blockedBecause ? "upload-blocked-reason" : undefined}
              flex={{ base: "1", sm: "initial" }}
            >
              {pending.length > 0 ? `Subir ${photosLabel(pending.length)}` : "Subir fotos"}
            </Button>
          </HStack>
          {blockedBecause && !busy && (
            <Text id="upload-blocked-reason" textStyle="sm" color="fg.muted" textAlign={{ base: "start", sm: "end" }}>
              {blockedBecause}
            </Text>
          )}
        </Stack>

        {followed && !sending && (
          <UploadFollow key={followed.uploadId} followed={followed} canReviewBibs={user?.role === "admin"} />
        )}

        <ZipUploadCard eventId={eventId} photoRuns={photoRuns} onStart={() => setProblem(null)} />

        {user?.role === "admin" && <DriveImportCard eventId={eventId} />}

        <MyUploadsCard followed={followed} sendingId={sendingId} />

        <Card.Root variant="subtle" size="sm">
          <Card.Body>
            <Text fontWeight="semibold" mb="2">
              Cómo funciona
            </Text>
            <List.Root as="ol" ps="5" gap="1" textStyle="sm" color="fg.muted">
              <List.Item>Elige el evento al que pertenecen las fotos.</List.Item>
              <List.Item>Agrega las fotos desde tu equipo, tu galería o la cámara.</List.Item>
              <List.Item>
                Pulsa «Subir»: se envían {uploadsAtOnce(uploader.phone)} fotos a la vez y, si la conexión se corta o
                cierras la pestaña, «Reanudar subida» sigue donde quedó. Las fotos que el evento ya tiene se detectan y
                no se publican dos veces.
              </List.Item>
            </List.Root>
          </Card.Body>
        </Card.Root>
      </Stack>
    </Box>
  );
}
