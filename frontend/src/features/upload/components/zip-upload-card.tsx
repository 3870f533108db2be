import { Alert, Box, Button, Card, Heading, HStack, Progress, Stack, Text, VisuallyHidden } from "@chakra-ui/react";
import { limits, messages } from "@dorsal/shared";
import { useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { formatBytes, formatCount } from "../../../lib/format";
import { uploadCancelledMessage } from "../api/direct-upload";
import { myUploadsKey } from "../api/my-uploads";
import { isSameZip, type PendingZip, zipPickSameFileMessage } from "../api/zip-resume";
import { isFinalZipStatus, zipAcceptAttribute } from "../api/zip-rules";
import { useZipUpload, type ZipUploadState } from "../hooks/use-zip-upload";
import { ZipBatchProgress } from "./zip-batch-progress";

const zipChooseFileMessage = "Elige un archivo ZIP para subirlo.";

function UploadProgress({
  state,
  onCancel,
}: {
  state: Extract<ZipUploadState, { phase: "uploading" }>;
  onCancel: () => void;
}) {
  return (
    <Box aria-live="polite">
      <HStack justify="space-between" mb="1" textStyle="sm" wrap="wrap">
        <Text>Subiendo ZIP… {state.percent}%</Text>
        <Text color="fg.muted">
          {formatBytes(state.loaded)} de {formatBytes(state.total)}
        </Text>
      </HStack>
      <HStack gap="3">
        <Progress.Root value={state.percent} colorPalette="blue" flex="1">
          <Progress.Track aria-label="Progreso de la subida del ZIP">
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <Button size="sm" variant="outline" colorPalette="red" onClick={onCancel}>
          Cancelar
        </Button>
      </HStack>
    </Box>
  );
}

function RunMessage({ state }: { state: ZipUploadState }) {
  if (state.phase === "cancelled") {
    return (
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Title>{uploadCancelledMessage}</Alert.Title>
      </Alert.Root>
    );
  }
  if (state.phase === "failed") {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{state.message}</Alert.Title>
      </Alert.Root>
    );
  }
  return null;
}

/**
 * An upload that stopped before its end (connection dropped, tab closed): it goes on from the parts
 * the store already has once the same file is at hand, or is given up after a confirmation.
 */
function UnfinishedUpload({
  pending,
  picked,
  interrupted,
  canResume,
  onResume,
  onDiscard,
}: {
  pending: PendingZip;
  picked: File | null;
  interrupted: boolean;
  canResume: boolean;
  onResume: () => void;
  onDiscard: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const otherFile = picked !== null && !isSameZip(pending, picked);
  return (
    <Stack gap="3" role="group" aria-label="Subida de ZIP sin terminar">
      {interrupted && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Subida de ZIP sin terminar</Alert.Title>
            <Alert.Description overflowWrap="anywhere">
              {pending.name} ({formatBytes(pending.size)}) no terminó de subirse. Elige el mismo archivo y pulsa
              Reanudar subida del ZIP: solo se envía lo que falta.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {!interrupted && <Text textStyle="sm">Reanudar subida del ZIP envía solo lo que falta del archivo.</Text>}
      {otherFile && (
        <Text textStyle="sm" color="fg.warning" overflowWrap="anywhere">
          {zipPickSameFileMessage(pending)}
        </Text>
      )}
      {confirming ? (
        <HStack gap="3" wrap="wrap">
          <Text textStyle="sm">¿Descartar la subida? Lo ya enviado se pierde.</Text>
          <Button size="sm" colorPalette="red" onClick={onDiscard}>
            Sí, descartar
          </Button>
          <Button size="sm" variant="outline" onClick={() => setConfirming(false)}>
            No
          </Button>
        </HStack>
      ) : (
        <HStack gap="3" wrap="wrap">
          <Button colorPalette="blue" onClick={onResume} disabled={!canResume}>
            Reanudar subida del ZIP
          </Button>
          <Button variant="ghost" onClick={() => setConfirming(true)}>
            Descartar
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

/**
 * Spec §2.5's ZIP source: one archive of up to 5000 photos for the event chosen on the page, sent
 * straight to storage and then followed while the server extracts and processes it.
 */
export function ZipUploadCard({
  eventId,
  photoRuns,
  onStart,
}: {
  eventId: number | null;
  /** Photo uploads started on the screen so far: each one clears this card's stale messages. */
  photoRuns: number;
  onStart: () => void;
}) {
  const zip = useZipUpload();
  const input = useRef<HTMLInputElement>(null);
  const { state } = zip;
  const { clearMessages } = zip;
  const seenRuns = useRef(photoRuns);
  useEffect(() => {
    if (photoRuns === seenRuns.current) return;
    seenRuns.current = photoRuns;
    clearMessages();
  }, [photoRuns, clearMessages]);
  const blockedBecause = eventId === null ? messages.selectEvent : zip.file ? null : zipChooseFileMessage;
  // The uploader's history lists the ZIP once its batch exists, and again when it ends.
  const queryClient = useQueryClient();
  const watchedStage =
    state.phase === "watching"
      ? `${state.batchId}:${state.batch && isFinalZipStatus(state.batch.status) ? "terminado" : "en curso"}`
      : null;
  useEffect(() => {
    if (watchedStage) void queryClient.invalidateQueries({ queryKey: myUploadsKey, exact: true });
  }, [watchedStage, queryClient]);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.currentTarget.files?.[0] ?? null;
    // Clearing lets the same file be picked again.
    event.currentTarget.value = "";
    zip.select(picked);
  };

  return (
    <Card.Root as="section" aria-labelledby="zip-upload-title">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading as="h2" size="md" id="zip-upload-title">
            Subir archivo ZIP
          </Heading>
          <Text color="fg.muted" textStyle="sm">
            Un archivo .zip de hasta {formatCount(limits.zipMaxBytes / 1024 ** 3)} GB con hasta{" "}
            {formatCount(limits.zipMaxPhotos)} fotos. Las fotos se extraen y se procesan en el servidor.
          </Text>
        </Stack>
        <HStack gap="3" wrap="wrap">
          <Button variant="outline" onClick={() => input.current?.click()} disabled={zip.uploading}>
            Elegir archivo ZIP
          </Button>
          <Text textStyle="sm" color={zip.file ? "fg" : "fg.muted"} wordBreak="break-all" minW="0" flex="1">
            {zip.file ? `${zip.file.name} · ${formatBytes(zip.file.size)}` : "Ningún archivo elegido"}
          </Text>
        </HStack>
        <VisuallyHidden>
          <input
            ref={input}
            type="file"
            accept={zipAcceptAttribute}
            onChange={pick}
            tabIndex={-1}
            aria-label="Archivo ZIP"
          />
        </VisuallyHidden>
        {zip.problem && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{zip.problem}</Alert.Title>
          </Alert.Root>
        )}
        <Stack gap="2" align={{ base: "stretch", sm: "flex-start" }}>
          <Button
            colorPalette="blue"
            onClick={() => {
              onStart();
              void zip.start(eventId);
            }}
            disabled={zip.uploading || blockedBecause !== null}
            aria-describedby={blockedBecause && !zip.uploading ? "zip-blocked-reason" : undefined}
          >
            Subir ZIP
          </Button>
          {blockedBecause && !zip.uploading && (
            <Text id="zip-blocked-reason" textStyle="sm" color="fg.muted">
              {blockedBecause}
            </Text>
          )}
        </Stack>
        {state.phase === "uploading" && <UploadProgress state={state} onCancel={zip.cancel} />}
        <RunMessage state={state} />
        {zip.pending && (state.phase === "interrupted" || state.phase === "failed") && (
          <UnfinishedUpload
            pending={zip.pending}
            picked={zip.file}
            interrupted={state.phase === "interrupted"}
            canResume={zip.canResume}
            onResume={() => void zip.resume()}
            onDiscard={zip.discard}
          />
        )}
        {state.phase === "watching" && (
          <ZipBatchProgress batch={state.batch} checkFailed={state.checkFailed} onRecheck={zip.recheck} />
        )}
      </Card.Body>
    </Card.Root>
  );
}
