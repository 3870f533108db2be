import { Badge, Card, Heading, HStack, Progress, Skeleton, Stack, Text } from "@chakra-ui/react";
import type { UploadSummaryDto, ZipUploadSummaryDto } from "@dorsal/shared";
import { EmptyState } from "../../../components/ui/empty-state";
import { UploadIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { formatCount, formatDateTime } from "../../../lib/format";
import { settledPhotos, useMyUploads } from "../api/my-uploads";
import { photosLabel } from "../api/photo-label";
import { zipStatusLabels, zipStatusPalettes } from "../api/zip-rules";
import type { FollowedUpload } from "./upload-follow";

type UploadState = { label: string; palette: string };

/**
 * What this screen knows beyond the server: files of the upload on their way now, or sent and not
 * yet taken in by processing (a matter of seconds), which are not "sin enviar".
 */
interface OnTheWay {
  sending: boolean;
  /** Files this screen sent for the upload; 0 when it did not. */
  sent: number;
}

/** Files chosen that never went: only once nothing of the upload is on its way. */
function unsentOf(upload: UploadSummaryDto, onTheWay: OnTheWay): number {
  return onTheWay.sending ? 0 : upload.fileCount - Math.max(upload.receivedPhotos, onTheWay.sent);
}

function stateOf(upload: UploadSummaryDto, onTheWay: OnTheWay): UploadState {
  if (onTheWay.sending) return { label: "Subiendo", palette: "blue" };
  if (upload.pendingPhotos > 0 || upload.receivedPhotos < onTheWay.sent)
    return { label: "Procesando", palette: "blue" };
  if (unsentOf(upload, onTheWay) > 0) return { label: "Incompleta", palette: "orange" };
  if (upload.failedPhotos > 0) return { label: "Con errores", palette: "red" };
  return { label: "Terminada", palette: "green" };
}

/** '10 procesadas · 2 ya estaban en el evento · 1 con error · 3 sin enviar': only what happened. */
function countsLine(upload: UploadSummaryDto, onTheWay: OnTheWay): string {
  const parts: [number, string, string][] = [
    [upload.processedPhotos, "procesada", "procesadas"],
    [upload.pendingPhotos, "procesando", "procesando"],
    [upload.duplicatePhotos, "ya estaba en el evento", "ya estaban en el evento"],
    [upload.failedPhotos, "con error", "con error"],
    [unsentOf(upload, onTheWay), "sin enviar", "sin enviar"],
  ];
  const shown = parts.filter(([count]) => count > 0);
  if (shown.length === 0) return "Nada procesado todavía";
  return shown.map(([count, one, many]) => `${formatCount(count)} ${count === 1 ? one : many}`).join(" · ");
}

function UploadRow({ upload, onTheWay }: { upload: UploadSummaryDto; onTheWay: OnTheWay }) {
  const state = stateOf(upload, onTheWay);
  const received = upload.receivedPhotos;
  return (
    <Stack as="li" listStyleType="none" gap="1.5" py="3" borderTopWidth="1px" _first={{ borderTopWidth: 0, pt: 0 }}>
      <HStack justify="space-between" gap="3" align="flex-start">
        <Text fontWeight="medium" minW="0" overflowWrap="anywhere">
          {upload.eventName ?? "Evento eliminado"}
        </Text>
        <Badge colorPalette={state.palette} size="sm" flexShrink={0}>
          {state.label}
        </Badge>
      </HStack>
      <Text textStyle="sm" color="fg.muted">
        {formatDateTime(upload.createdAt)} · {photosLabel(upload.fileCount)}
      </Text>
      <Text textStyle="sm">{countsLine(upload, onTheWay)}</Text>
      {upload.pendingPhotos > 0 && received > 0 && (
        <Progress.Root value={Math.round((settledPhotos(upload) / received) * 100)} size="xs" colorPalette="blue">
          <Progress.Track aria-label={`Progreso de la subida del ${formatDateTime(upload.createdAt)}`}>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
    </Stack>
  );
}

/** A ZIP (or a drive folder, imported as one), as its batch counts it: the ZIP card's figures, in one line. */
function ZipRow({ upload }: { upload: ZipUploadSummaryDto }) {
  const counts: [number, string][] = [
    upload.fromDrive
      ? [upload.extractedFiles, upload.extractedFiles === 1 ? "importada" : "importadas"]
      : [upload.extractedFiles, upload.extractedFiles === 1 ? "extraída" : "extraídas"],
    [upload.processedFiles, upload.processedFiles === 1 ? "procesada" : "procesadas"],
    [upload.skippedFiles, upload.skippedFiles === 1 ? "omitida" : "omitidas"],
  ];
  const shown = counts.filter(([count]) => count > 0);
  return (
    <Stack as="li" listStyleType="none" gap="1.5" py="3" borderTopWidth="1px" _first={{ borderTopWidth: 0, pt: 0 }}>
      <HStack justify="space-between" gap="3" align="flex-start">
        <Text fontWeight="medium" minW="0" overflowWrap="anywhere">
          {upload.eventName ?? "Evento eliminado"}
        </Text>
        <Badge colorPalette={zipStatusPalettes[upload.status]} size="sm" flexShrink={0}>
          {zipStatusLabels[upload.status]}
        </Badge>
      </HStack>
      <Text textStyle="sm" color="fg.muted" overflowWrap="anywhere">
        {formatDateTime(upload.createdAt)} · {upload.fromDrive ? "Google Drive" : "ZIP"} {upload.fileName}
        {upload.totalFiles > 0 ? ` · ${formatCount(upload.totalFiles)} archivos` : ""}
      </Text>
      <Text textStyle="sm">
        {shown.length === 0
          ? upload.fromDrive
            ? "Nada importado todavía"
            : "Nada extraído todavía"
          : shown.map(([count, label]) => `${formatCount(count)} ${label}`).join(" · ")}
      </Text>
    </Stack>
  );
}

/**
 * 'Mis subidas': the signed-in uploader's own recent uploads (the server lists nobody else's), each
 * with what became of its photos, refreshed while one is still being processed.
 */
export function MyUploadsCard({ followed, sendingId }: { followed: FollowedUpload | null; sendingId: string | null }) {
  const uploads = useMyUploads(followed?.uploadId ?? null);
  return (
    <Card.Root as="section" aria-labelledby="my-uploads-title">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading as="h2" size="md" id="my-uploads-title">
            Mis subidas
          </Heading>
          <Text color="fg.muted" textStyle="sm">
            Tus últimas subidas de fotos, archivos ZIP y carpetas de Google Drive, y en qué van. Solo ves las que
            subiste tú.
          </Text>
        </Stack>
        {uploads.isPending ? (
          <Skeleton height="16" />
        ) : uploads.isError ? (
          <LoadError title="Error cargando tus subidas" query={uploads} />
        ) : uploads.data.uploads.length === 0 ? (
          <EmptyState
            variant="inline"
            icon={<UploadIcon />}
            title="Aún no has subido fotos"
            description="Cada vez que subas fotos, aquí verás cuántas quedaron listas."
          />
        ) : (
          <Stack as="ul" gap="0" aria-label="Mis subidas recientes">
            {uploads.data.uploads.map((upload) =>
              upload.kind === "zip" ? (
                <ZipRow key={upload.uploadId} upload={upload} />
              ) : (
                <UploadRow
                  key={upload.uploadId}
                  upload={upload}
                  onTheWay={{
                    sending: upload.uploadId === sendingId,
                    sent: upload.uploadId === followed?.uploadId ? followed.sent : 0,
                  }}
                />
              ),
            )}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
