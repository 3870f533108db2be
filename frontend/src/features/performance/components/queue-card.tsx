import { Link } from "@chakra-ui/react";
import type { QueueStatsDto } from "@dorsal/shared";
import type { UseQueryResult } from "@tanstack/react-query";
import { Link as RouterLink } from "react-router";
import { formatCount, formatDateTime } from "../../../lib/format";
import { formatDuration } from "../api/format";
import { type Figure, Figures, ReadState, Section } from "./section";

function figures(queue: QueueStatsDto): Figure[] {
  return [
    { label: "Pendientes", value: formatCount(queue.pending), note: "subidas y aún sin procesar" },
    queue.processing === null
      ? { label: "Procesándose ahora", value: "—", note: "AWS no informa cuántas se procesan a la vez" }
      : { label: "Procesándose ahora", value: formatCount(queue.processing) },
    queue.waiting === null
      ? { label: "En espera", value: "—", note: "la plataforma no lo informa" }
      : {
          label: "En espera",
          value: formatCount(queue.waiting),
          ...(queue.oldestWaitingSince
            ? { note: `la más antigua desde ${formatDateTime(queue.oldestWaitingSince)}` }
            : {}),
        },
    { label: "Completadas", value: formatCount(queue.completed) },
    {
      label: "Fallidas",
      value:
        queue.failed > 0 ? (
          <Link asChild color="red.700">
            <RouterLink to="/processing">{formatCount(queue.failed)}</RouterLink>
          </Link>
        ) : (
          "0"
        ),
    },
    queue.averageProcessingTime === null
      ? { label: "Tiempo medio por foto", value: "—", note: "aún no se ha procesado ninguna foto" }
      : {
          label: "Tiempo medio por foto",
          value: formatDuration(queue.averageProcessingTime),
          note: "copias y lectura",
        },
  ];
}

/** 'Cola de procesamiento' (spec §2.7 queue metrics): every event's photos, read every 10 s. */
export function QueueCard({ queue }: { queue: UseQueryResult<QueueStatsDto> }) {
  return (
    <Section
      title="Cola de procesamiento"
      description="Todas las fotos de todos los eventos · se actualiza cada 10 s"
      testId="queue-card"
    >
      {queue.data ? (
        <Figures items={figures(queue.data)} />
      ) : (
        <ReadState query={queue} title="Error cargando la cola de procesamiento" />
      )}
    </Section>
  );
}
