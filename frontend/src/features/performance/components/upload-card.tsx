import { Badge, HStack, Progress, Stack } from "@chakra-ui/react";
import type { UploadMetricsDto } from "@dorsal/shared";
import type { UseQueryResult } from "@tanstack/react-query";
import { EmptyState } from "../../../components/ui/empty-state";
import { formatCount } from "../../../lib/format";
import { formatDuration, progressPercent } from "../api/format";
import { type Figure, Figures, ReadState, Section } from "./section";

function figures(upload: UploadMetricsDto, eventName: string | null): Figure[] {
  return [
    { label: "Evento", value: eventName ?? (upload.eventId === null ? "—" : `Evento ${upload.eventId}`) },
    { label: "Exitosas", value: formatCount(upload.successfulPhotos) },
    { label: "Fallidas", value: formatCount(upload.failedPhotos) },
    upload.averageOcrTime === null
      ? { label: "Lectura media por foto", value: "—", note: "ninguna foto leída aún" }
      : { label: "Lectura media por foto", value: formatDuration(upload.averageOcrTime) },
    upload.totalUploadTime === null
      ? { label: "Tiempo total", value: "—" }
      : {
          label: "Tiempo total",
          value: formatDuration(upload.totalUploadTime),
          note: upload.isActive ? "hasta ahora" : "del inicio a la última foto procesada",
        },
    { label: "Última foto procesada", value: upload.lastProcessedPhoto ?? "Ninguna aún" },
  ];
}

function UploadProgress({ upload }: { upload: UploadMetricsDto }) {
  const percent = progressPercent(upload.processedPhotos, upload.totalPhotos);
  return (
    <Progress.Root
      value={percent}
      colorPalette={upload.isActive ? "blue" : upload.failedPhotos > 0 ? "orange" : "green"}
      striped={upload.isActive}
      animated={upload.isActive}
    >
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Progress.Label>
          {formatCount(upload.processedPhotos)} de {formatCount(upload.totalPhotos)} fotos procesadas
        </Progress.Label>
        <Progress.ValueText>{percent}%</Progress.ValueText>
      </HStack>
      <Progress.Track mt="1" aria-label="Avance de tu última subida">
        <Progress.Range />
      </Progress.Track>
    </Progress.Root>
  );
}

/**
 * 'Tu última subida' (spec §2.7 upload metrics): the asking organizer's own latest upload, read
 * every 2 s while its photos are processed and every 30 s after.
 */
export function UploadCard({
  upload,
  eventName,
}: {
  upload: UseQueryResult<UploadMetricsDto>;
  eventName: (eventId: number | null) => string | null;
}) {
  const data = upload.data;
  const aside =
    data && data.uploadId !== null ? (
      <Badge colorPalette={data.isActive ? "blue" : "green"} variant="surface" data-testid="upload-state">
        {data.isActive ? "En curso" : "Terminada"}
      </Badge>
    ) : undefined;
  return (
    <Section
      title="Tu última subida"
      description={
        data?.isActive
          ? "Las fotos que subiste tú, la última vez · se actualiza cada 2 s"
          : "Las fotos que subiste tú, la última vez · se actualiza cada 30 s"
      }
      aside={aside}
      testId="upload-card"
    >
      {!data ? (
        <ReadState query={upload} title="Error cargando tu última subida" />
      ) : data.uploadId === null ? (
        <EmptyState
          variant="inline"
          title="Aún no has subido fotos"
          description="Cuando subas fotos, aquí verás cuántas se han procesado y cuánto tardaron."
        />
      ) : (
        <Stack gap="4">
          <UploadProgress upload={data} />
          <Figures items={figures(data, eventName(data.eventId))} />
        </Stack>
      )}
    </Section>
  );
}
