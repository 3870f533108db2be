import { Badge } from "@chakra-ui/react";
import type { CacheStatsDto } from "@dorsal/shared";
import type { UseQueryResult } from "@tanstack/react-query";
import { formatBytes, formatCount } from "../../../lib/format";
import { formatPercent, hitRatePalette } from "../api/format";
import { type Figure, Figures, ReadState, Section } from "./section";

function figures(cache: CacheStatsDto): Figure[] {
  return [
    cache.hitRate === null
      ? { label: "Tasa de aciertos", value: "—", note: "ninguna imagen pedida en la última hora" }
      : {
          label: "Tasa de aciertos",
          value: (
            <Badge colorPalette={hitRatePalette(cache.hitRate)} variant="surface" size="lg">
              {formatPercent(cache.hitRate)}
            </Badge>
          ),
          note: "en la última hora",
        },
    { label: "Aciertos", value: formatCount(cache.hits), note: "en la última hora" },
    { label: "Fallos", value: formatCount(cache.misses), note: "en la última hora" },
    { label: "Expulsiones", value: formatCount(cache.evictions), note: "en la última hora" },
    { label: "Entradas", value: formatCount(cache.totalEntries) },
    { label: "Tamaño", value: formatBytes(cache.totalSize), note: "aproximado" },
  ];
}

/**
 * The signed image URL cache (spec §2.7 cache metrics): links the server signs once and hands out
 * again while they are valid. A hit rate of 80 % or more is good, 60 % a warning (spec §9).
 */
export function CacheCard({ cache }: { cache: UseQueryResult<CacheStatsDto> }) {
  return (
    <Section
      title="Caché de URLs firmadas"
      description="Enlaces de imágenes firmados una vez y reutilizados mientras valen · se actualiza cada 30 s"
      testId="cache-card"
    >
      {cache.data ? (
        <Figures items={figures(cache.data)} />
      ) : (
        <ReadState query={cache} title="Error cargando la caché de URLs firmadas" />
      )}
    </Section>
  );
}
