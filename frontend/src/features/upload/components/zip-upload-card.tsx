import { Alert, Box, Button, Card, Heading, HStack, Progress, Stack, Text, VisuallyHidden } from "@chakra-ui/react";
import { limits } from "@dorsal/shared";
import { type ChangeEvent, useRef } from "react";
import { formatBytes, formatCount } from "../../../lib/format";
import { uploadCancelledMessage } from "../api/direct-upload";
import { zipAcceptAttribute } from "../api/zip-rules";
import { useZipUpload, type ZipUploadState } from "../hooks/use-zip-upload";
import { ZipBatchProgress } from "./zip-batch-progress";

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
 * Spec §2.5's ZIP source: one archive of up to 5000 photos for the event chosen on the page, sent
 * straight to storage and then followed while the server extracts and processes it.
 */
export function ZipUploadCard({ eventId }: { eventId: number | null }) {
  const zip = useZipUpload();
  const input = useRef<HTMLInputElement>(null);
  const { state } = zip;

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
        <Button
          colorPalette="blue"
          onClick={() => zip.start(eventId)}
          disabled={zip.uploading}
          alignSelf={{ base: "stretch", sm: "flex-start" }}
        >
          Subir ZIP
        </Button>
        {state.phase === "uploading" && <UploadProgress state={state} onCancel={zip.cancel} />}
        <RunMessage state={state} />
        {state.phase === "watching" && (
          <ZipBatchProgress batch={state.batch} checkFailed={state.checkFailed} onRecheck={zip.recheck} />
        )}
      </Card.Body>
    </Card.Root>
  );
}
