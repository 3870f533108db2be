import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  chakra,
  HStack,
  List,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from "@chakra-ui/react";
import { type DownloadPhoto, salesMessages } from "@dorsal/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router";
import { PageHeader } from "../../../components/ui/page-header";
import { PhotoPreviewDialog } from "../../../components/ui/photo-preview-dialog";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { ApiError } from "../../../lib/api-fetch";
import { downloadFile, pause } from "../../../lib/download-file";
import { formatCount, formatDateTime } from "../../../lib/format";
import { useDownloadInfo } from "../api/download-info";

/** Spec §9: paid photos are downloaded one after another, 500 ms apart. */
const bulkSpacingMs = 500;
/** Spec §4: the info is read again 1 s after a batch, so the remaining downloads are the server's. */
const refetchAfterBatchMs = 1000;

type PhotoState =
  | { phase: "idle" }
  | { phase: "downloading"; percent: number }
  | { phase: "done" }
  | { phase: "failed" };

function AccessError({ title, message }: { title: string; message: string }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{message}</Alert.Description>
        <Box mt="3">
          <Button asChild size="sm" variant="outline">
            <RouterLink to="/search">Buscar mis fotos</RouterLink>
          </Button>
        </Box>
      </Alert.Content>
    </Alert.Root>
  );
}

function PaidDownloads({ token, transactionId }: { token: string; transactionId: string | null }) {
  const info = useDownloadInfo(token, transactionId);
  const queryClient = useQueryClient();
  const [states, setStates] = useState<Record<string, PhotoState>>({});
  const [preview, setPreview] = useState<DownloadPhoto | null>(null);
  const [running, setRunning] = useState(false);

  if (info.isPending) return <Skeleton height="64" />;
  if (info.isError) {
    const error = info.error;
    if (error instanceof ApiError && error.status === 410) {
      return <AccessError title="Enlace expirado" message={salesMessages.downloadExpired} />;
    }
    return (
      <AccessError
        title="No se pudo acceder a la descarga"
        message={error instanceof ApiError ? error.message : salesMessages.downloadInfoFailed}
      />
    );
  }
  const data = info.data;
  if (data.status === "pending") {
    return (
      <Alert.Root status="info" aria-live="polite">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Pago pendiente</Alert.Title>
          <Alert.Description>{salesMessages.paymentPending}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  if (data.status !== "paid") {
    return <AccessError title="Pago no aprobado" message={salesMessages.paymentDeclined} />;
  }

  const setState = (photoId: string, state: PhotoState) => setStates((current) => ({ ...current, [photoId]: state }));
  const download = async (photo: DownloadPhoto) => {
    setState(photo.id, { phase: "downloading", percent: 0 });
    try {
      await downloadFile(photo.downloadUrl, photo.originalFilename, (percent) =>
        setState(photo.id, { phase: "downloading", percent }),
      );
      setState(photo.id, { phase: "done" });
    } catch {
      setState(photo.id, { phase: "failed" });
    }
  };
  const run = async (photos: DownloadPhoto[]) => {
    setRunning(true);
    for (const [index, photo] of photos.entries()) {
      if (index > 0) await pause(bulkSpacingMs);
      await download(photo);
    }
    setRunning(false);
    await pause(refetchAfterBatchMs);
    await queryClient.invalidateQueries({ queryKey: ["sales", "download", token] });
  };

  const exhausted = data.remainingDownloads <= 0;
  const pending = data.photos.filter((photo) => states[photo.id]?.phase !== "done" && photo.remainingDownloads > 0);

  return (
    <Stack gap="5">
      <Card.Root>
        <Card.Body>
          <HStack justify="space-between" wrap="wrap" gap="3">
            <Stack gap="1">
              <Text fontWeight="semibold">
                {data.eventName}
                {data.dorsalNumber ? ` · dorsal ${data.dorsalNumber}` : ""}
              </Text>
              <HStack wrap="wrap" gap="2">
                <Badge colorPalette="blue">
                  {formatCount(data.photos.length)} {data.photos.length === 1 ? "foto" : "fotos"}
                </Badge>
                {data.expiresAt && (
                  <Badge colorPalette="orange">Disponible hasta {formatDateTime(data.expiresAt)}</Badge>
                )}
                <Badge colorPalette={exhausted ? "red" : "green"} data-testid="remaining-downloads">
                  {formatCount(Math.max(0, data.remainingDownloads))} de {formatCount(data.maxDownloads)} descargas
                  restantes
                </Badge>
              </HStack>
            </Stack>
            <Button
              colorPalette="blue"
              onClick={() => void run(pending)}
              disabled={running || exhausted || pending.length === 0}
              loading={running}
            >
              Descargar todas
            </Button>
          </HStack>
        </Card.Body>
      </Card.Root>
      {exhausted && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Title>{salesMessages.downloadLimit}</Alert.Title>
        </Alert.Root>
      )}
      <SimpleGrid as="ul" columns={{ base: 1, sm: 2, md: 3 }} gap="4">
        {data.photos.map((photo) => {
          const state = states[photo.id] ?? { phase: "idle" };
          return (
            <Card.Root as="li" key={photo.id} listStyleType="none" overflow="hidden">
              <chakra.button
                type="button"
                onClick={() => setPreview(photo)}
                aria-label={`Ver foto ${photo.originalFilename}`}
                aspectRatio={4 / 3}
                bg="gray.100"
                display="flex"
                alignItems="center"
                justifyContent="center"
                cursor="pointer"
              >
                <ThumbnailImage url={photo.thumbnailUrl} />
              </chakra.button>
              <Card.Body gap="2" p="3">
                <Text textStyle="sm" truncate>
                  {photo.originalFilename}
                </Text>
                <Text textStyle="xs" color="fg.muted">
                  {formatCount(photo.remainingDownloads)} descargas restantes de esta foto
                </Text>
                {state.phase === "downloading" && (
                  <Progress.Root value={state.percent} size="sm" aria-label={`Descargando ${photo.originalFilename}`}>
                    <Progress.Track>
                      <Progress.Range />
                    </Progress.Track>
                  </Progress.Root>
                )}
                {state.phase === "failed" && (
                  <Text textStyle="xs" color="red.600" role="alert">
                    {salesMessages.photoDownloadFailed}
                  </Text>
                )}
                <Button
                  size="sm"
                  variant={state.phase === "done" ? "subtle" : "outline"}
                  onClick={() => void download(photo)}
                  disabled={running || state.phase === "downloading" || photo.remainingDownloads <= 0}
                >
                  {state.phase === "done"
                    ? "Descargada"
                    : state.phase === "downloading"
                      ? `Descargando ${state.percent}%`
                      : "Descargar"}
                </Button>
              </Card.Body>
            </Card.Root>
          );
        })}
      </SimpleGrid>
      <PhotoPreviewDialog
        photo={
          preview && { originalFilename: preview.originalFilename, sources: [preview.webUrl, preview.thumbnailUrl] }
        }
        onClose={() => setPreview(null)}
      />
    </Stack>
  );
}

/** Spec §2.6 download page: the paid originals behind a time-limited link with capped downloads. */
export function DownloadPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  return (
    <Box>
      <PageHeader title="Descarga tus fotos" subtitle="Fotos originales en alta resolución, sin marca de agua" />
      <Stack gap="8">
        {token ? (
          <PaidDownloads token={token} transactionId={params.get("id")} />
        ) : (
          <AccessError title="Enlace de descarga no válido" message={salesMessages.tokenRequired} />
        )}
        <Card.Root as="section" aria-labelledby="download-help" variant="subtle">
          <Card.Body>
            <Text fontWeight="semibold" id="download-help" mb="2">
              Ayuda
            </Text>
            <List.Root gap="1" textStyle="sm" color="fg.muted" ps="4">
              <List.Item>Guarda este enlace: es la única forma de volver a tus fotos.</List.Item>
              <List.Item>
                Cada foto se puede descargar el número de veces indicado, hasta la fecha de expiración.
              </List.Item>
              <List.Item>
                En el celular, las fotos quedan en la carpeta de descargas; desde allí puedes guardarlas en la galería.
              </List.Item>
              <List.Item>¿Problemas con tu descarga? Contacta al organizador del evento.</List.Item>
            </List.Root>
          </Card.Body>
        </Card.Root>
      </Stack>
    </Box>
  );
}
