import { Alert, Button, Card, Heading, HStack, List, Progress, Stack, Text } from "@chakra-ui/react";
import type { UploadDetailDto, UploadHistoryDto } from "@dorsal/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link as RouterLink } from "react-router";
import { formatCount } from "../../../lib/format";
import { myUploadsKey, settledPhotos, uploadDetailQueryOptions, uploadPollEveryMs } from "../api/my-uploads";
import { photosLabel } from "../api/photo-label";

/** The upload the screen follows after its files went: how many of them the uploader sent. */
export interface FollowedUpload {
  uploadId: string;
  eventId: number;
  /** Files this screen sent for it (all its runs); the server may know of more after a closed tab. */
  sent: number;
  /** When the last run ended: the follow stops asking after `watchForMs`. */
  since: number;
}

/** Processing keeps running on the server; after this the screen stops asking and says so. */
const watchForMs = 10 * 60 * 1000;

/** Every photo sent has reached the pipeline and none is still being processed. */
export function isProcessed(upload: UploadDetailDto, sent: number): boolean {
  return upload.pendingPhotos === 0 && upload.receivedPhotos >= sent;
}

function NamedPhotos({ label, items }: { label: string; items: { key: string; text: string }[] }) {
  if (items.length === 0) return null;
  return (
    <List.Root ps="5" gap="1" textStyle="sm" aria-label={label}>
      {items.map((item) => (
        <List.Item key={item.key} overflowWrap="anywhere">
          {item.text}
        </List.Item>
      ))}
    </List.Root>
  );
}

/**
 * 'Esta subida': the processing of the photos just sent — not the whole event's — measured against
 * a total fixed when the run ended. It says what became of each: processed, already in the event
 * (duplicates, named with the photo they copy) or failed, and then leads an admin to the bibs.
 */
export function UploadFollow({ followed, canReviewBibs }: { followed: FollowedUpload; canReviewBibs: boolean }) {
  const queryClient = useQueryClient();
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    setExpired(false);
    const timer = window.setTimeout(() => setExpired(true), Math.max(0, followed.since + watchForMs - Date.now()));
    return () => window.clearTimeout(timer);
  }, [followed.since]);

  const detail = useQuery({
    ...uploadDetailQueryOptions(followed.uploadId),
    staleTime: 0,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (Date.now() - followed.since > watchForMs) return false;
      return data && isProcessed(data, followed.sent) ? false : uploadPollEveryMs;
    },
  });
  const finished = detail.data ? isProcessed(detail.data, followed.sent) : false;

  // The history is not asked about this upload meanwhile: it shows what was just read here.
  useEffect(() => {
    const latest = detail.data;
    if (!latest) return;
    queryClient.setQueryData<UploadHistoryDto>(myUploadsKey, (history) =>
      history
        ? {
            uploads: history.uploads.map((upload) => {
              if (upload.uploadId !== latest.uploadId) return upload;
              const { duplicates: _duplicates, failures: _failures, ...summary } = latest;
              return summary;
            }),
          }
        : history,
    );
  }, [detail.data, queryClient]);

  // Once done, the history and the event's figures (processed, duplicates) are read again.
  useEffect(() => {
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: myUploadsKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: ["events", followed.eventId], exact: true });
  }, [finished, followed.eventId, queryClient]);

  if (!detail.data) {
    return detail.isError ? (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Error al verificar el progreso</Alert.Title>
          <Alert.Description>{detail.error.message}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    ) : null;
  }

  const upload = detail.data;
  const total = Math.max(followed.sent, upload.receivedPhotos);
  const settled = settledPhotos(upload);
  const percent = total === 0 ? 0 : Math.round((settled / total) * 100);
  const unsent = upload.fileCount - total;
  return (
    <Card.Root as="section" aria-labelledby="upload-follow-title" aria-live="polite">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading as="h2" size="md" id="upload-follow-title">
            {finished ? "Procesamiento terminado" : `Subidas ${photosLabel(total)}; procesando…`}
          </Heading>
          {upload.eventName && (
            <Text textStyle="sm" color="fg.muted">
              {upload.eventName}
            </Text>
          )}
        </Stack>
        <Stack gap="1.5">
          <Progress.Root
            value={percent}
            colorPalette={finished ? (upload.failedPhotos > 0 ? "orange" : "green") : "blue"}
            striped={!finished}
            animated={!finished}
          >
            <Progress.Track aria-label="Progreso del procesamiento de esta subida">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text textStyle="sm">
            {formatCount(settled)} de {photosLabel(total)} {total === 1 ? "lista" : "listas"}
          </Text>
        </Stack>
        <Stack gap="3">
          {upload.processedPhotos > 0 && (
            <Text color="green.700">
              {upload.processedPhotos === 1
                ? "1 foto procesada: ya se encuentra por dorsal."
                : `${photosLabel(upload.processedPhotos)} procesadas: ya se encuentran por dorsal.`}
            </Text>
          )}
          {upload.duplicatePhotos > 0 && (
            <Stack gap="1">
              <Text color="orange.700">
                {photosLabel(upload.duplicatePhotos)} ya {upload.duplicatePhotos === 1 ? "estaba" : "estaban"} en el
                evento: no se {upload.duplicatePhotos === 1 ? "publica" : "publican"} de nuevo.
              </Text>
              <NamedPhotos
                label="Fotos que ya estaban en el evento"
                items={upload.duplicates.map((duplicate) => ({
                  key: duplicate.photoId,
                  text: duplicate.duplicateOfFilename
                    ? `${duplicate.originalFilename}: igual a ${duplicate.duplicateOfFilename}`
                    : duplicate.originalFilename,
                }))}
              />
            </Stack>
          )}
          {upload.failedPhotos > 0 && (
            <Stack gap="1">
              <Text color="red.700">
                {photosLabel(upload.failedPhotos)} no se {upload.failedPhotos === 1 ? "pudo" : "pudieron"} procesar.
              </Text>
              <NamedPhotos
                label="Fotos que no se pudieron procesar"
                items={upload.failures.map((failure) => ({
                  key: failure.photoId,
                  text: failure.reason ? `${failure.originalFilename}: ${failure.reason}` : failure.originalFilename,
                }))}
              />
            </Stack>
          )}
          {unsent > 0 && (
            <Text color="fg.muted" textStyle="sm">
              {photosLabel(unsent)} de las elegidas no se {unsent === 1 ? "envió" : "enviaron"}.
            </Text>
          )}
          {!finished && (
            <Text color="fg.muted" textStyle="sm">
              {expired
                ? "El procesamiento continúa en el servidor: lo verás en «Mis subidas»."
                : "Detectando dorsales… puedes seguir subiendo fotos mientras tanto."}
            </Text>
          )}
        </Stack>
        {finished && canReviewBibs && (
          <HStack gap="3" wrap="wrap">
            <Button asChild colorPalette="blue" size="sm">
              <RouterLink to={`/events/${followed.eventId}/dorsales`}>Revisar dorsales</RouterLink>
            </Button>
            {upload.failedPhotos > 0 && (
              <Button asChild variant="outline" size="sm">
                <RouterLink to={`/processing?eventId=${followed.eventId}`}>Ver fotos con errores</RouterLink>
              </Button>
            )}
          </HStack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
