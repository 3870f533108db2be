import { Alert, Card, Heading, Progress, Text } from "@chakra-ui/react";
import type { EventDto } from "@dorsal/shared";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatCount } from "../../../lib/format";
import { eventQueryOptions } from "../../events/api/get-event";

export interface ProcessingWatch {
  eventId: number;
  /** Photos the event should count once this upload is registered; null when unknown. */
  expectedTotal: number | null;
  since: number;
}

const pollEveryMs = 2000;
/** Recognition keeps running on the server; after this the screen stops asking and says so. */
const watchForMs = 10 * 60 * 1000;

function isFinished(event: EventDto, expectedTotal: number | null): boolean {
  // Copies of photos the event already has settle too: processed + failed + duplicates = total.
  const settled = event.photoCount + event.failedPhotos + event.duplicatePhotos;
  return settled >= event.totalPhotos && (expectedTotal === null || event.totalPhotos >= expectedTotal);
}

export function ProcessingStatus({ watch }: { watch: ProcessingWatch }) {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    setExpired(false);
    const timer = window.setTimeout(() => setExpired(true), Math.max(0, watch.since + watchForMs - Date.now()));
    return () => window.clearTimeout(timer);
  }, [watch]);

  const event = useQuery({
    ...eventQueryOptions(watch.eventId),
    // A cached copy from before the upload would look finished already.
    staleTime: 0,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (Date.now() - watch.since > watchForMs) return false;
      if (data && query.state.dataUpdatedAt >= watch.since && isFinished(data, watch.expectedTotal)) return false;
      return pollEveryMs;
    },
  });

  if (!event.data) {
    return event.isError ? (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>Error al verificar el progreso</Alert.Title>
      </Alert.Root>
    ) : null;
  }

  const { photoCount, failedPhotos, duplicatePhotos, totalPhotos, name } = event.data;
  const finished = event.dataUpdatedAt >= watch.since && isFinished(event.data, watch.expectedTotal);
  const percent =
    totalPhotos === 0 ? 0 : Math.round(((photoCount + failedPhotos + duplicatePhotos) / totalPhotos) * 100);

  return (
    <Card.Root as="section" aria-labelledby="processing-title" aria-live="polite">
      <Card.Body gap="3">
        <Heading as="h2" size="md" id="processing-title">
          Procesamiento · {name}
        </Heading>
        <Progress.Root
          value={percent}
          colorPalette={finished ? "green" : "blue"}
          striped={!finished}
          animated={!finished}
        >
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <Text>
          Procesadas {formatCount(photoCount)} de {formatCount(totalPhotos)}
        </Text>
        {failedPhotos > 0 ? (
          <Text color="red.700" textStyle="sm">
            {formatCount(failedPhotos)} foto(s) no se pudieron procesar.
          </Text>
        ) : null}
        {finished ? (
          <Text color="green.700" textStyle="sm">
            {failedPhotos > 0 ? "Procesamiento terminado." : "Todas las fotos del evento están procesadas."}
          </Text>
        ) : expired ? (
          <Text color="fg.muted" textStyle="sm">
            El procesamiento continúa en el servidor. Revisa el evento más tarde.
          </Text>
        ) : (
          <Text color="fg.muted" textStyle="sm">
            Detectando dorsales… esto puede tardar unos minutos.
          </Text>
        )}
      </Card.Body>
    </Card.Root>
  );
}
