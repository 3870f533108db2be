import { SimpleGrid } from "@chakra-ui/react";
import type { PerformanceStatsDto } from "@dorsal/shared";
import { StatCard } from "../../../components/ui/stat-card";
import { countOf, formatDuration, formatMegabytes, formatPercent, formatRate, performanceText } from "../api/format";

/** The hour's rate; a few photos in an hour round to 0, which would read as none. */
function hourRate(stats: PerformanceStatsDto): string {
  const searchable = stats.stages.find((stage) => stage.stage === "searchable")?.count ?? 0;
  return stats.photosPerMinute.lastHour === 0 && searchable > 0
    ? `menos de ${formatRate(0.1)}`
    : formatRate(stats.photosPerMinute.lastHour);
}

/** The spec's performance metrics, one card each; a figure the hour did not measure is '—' and says so. */
function cards(stats: PerformanceStatsDto) {
  const hourly = (value: number | null, format: (value: number) => string, covers: string) =>
    value === null ? { value: "—", caption: performanceText.noDataHour } : { value: format(value), caption: covers };
  return [
    {
      label: "De la llegada a buscable",
      ...hourly(stats.averageUploadTime, formatDuration, "promedio de la última hora"),
      accent: "blue.500",
    },
    {
      label: "Lectura por foto",
      ...hourly(stats.averageOcrTime, formatDuration, "promedio de la última hora"),
      accent: "purple.500",
    },
    {
      label: "Fotos por minuto",
      value: formatRate(stats.photosPerMinute.last5Minutes),
      caption: `últimos 5 minutos · ${hourRate(stats)} en la última hora`,
      accent: "teal.500",
    },
    {
      label: "Tasa de éxito",
      ...(stats.successRate === null
        ? { value: "—", caption: "ninguna foto procesada aún" }
        : {
            value: formatPercent(stats.successRate),
            caption: `${countOf(stats.totalPhotosProcessed, "foto procesada", "fotos procesadas")} en total`,
          }),
      accent: "green.500",
    },
    {
      label: "Memoria máxima",
      ...hourly(stats.peakMemoryUsage, formatMegabytes, "pico de la última hora"),
      accent: "orange.500",
    },
  ];
}

/** The hour's figures at a glance: five cards, two a row on a phone, all five on a wide screen. */
export function SummaryFigures({ stats }: { stats: PerformanceStatsDto }) {
  return (
    <SimpleGrid as="section" aria-label="Resumen de rendimiento" columns={{ base: 2, lg: 3, xl: 5 }} gap="4">
      {cards(stats).map((card) => (
        <StatCard key={card.label} {...card} />
      ))}
    </SimpleGrid>
  );
}
