import { Box, HStack, Stack, Text } from "@chakra-ui/react";
import type { MemoryReading } from "@dorsal/shared";
import { formatDateTime } from "../../../lib/format";
import { formatMegabytes, memoryBars } from "../api/format";
import { Figures } from "./section";

/** Spec §2.7: the memory trend shows the last 20 readings; the chart always has room for 20. */
const slots = 20;
const slotWidth = 10;
const chartHeight = 100;
const rssColor = "var(--chakra-colors-blue-300)";
const heapColor = "var(--chakra-colors-blue-700)";

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <HStack gap="1.5">
      <Box boxSize="3" borderRadius="sm" style={{ background: color }} aria-hidden />
      <Text textStyle="xs" color="fg.muted">
        {label}
      </Text>
    </HStack>
  );
}

/**
 * The last readings as bars, oldest at the left and the newest at the right edge: resident memory
 * (RSS) and, inside it, the JavaScript heap. An inline SVG, not a chart library: the screen is
 * small and the bundle budget tight. The figures under it say the same in words.
 */
export function MemoryTrend({ readings }: { readings: MemoryReading[] }) {
  const bars = memoryBars(readings.slice(-slots));
  const first = bars[0];
  const last = bars.at(-1);
  if (!first || !last) {
    return (
      <Text textStyle="sm" color="fg.muted">
        Sin lecturas de memoria en la última hora: se toman mientras se procesan fotos.
      </Text>
    );
  }
  const peak = Math.max(...bars.map((bar) => bar.rss));
  const low = Math.min(...bars.map((bar) => bar.rss));
  const offset = slots - bars.length;
  const summary =
    `Memoria de las últimas ${bars.length} lecturas, de ${formatDateTime(first.at)} a ${formatDateTime(last.at)}: ` +
    `entre ${formatMegabytes(low)} y ${formatMegabytes(peak)}; la última, ${formatMegabytes(last.rss)}.`;
  return (
    <Stack gap="4">
      <Stack gap="2">
        <Box borderBottomWidth="1px" borderColor="border.emphasized">
          <svg
            viewBox={`0 0 ${slots * slotWidth} ${chartHeight}`}
            preserveAspectRatio="none"
            width="100%"
            height="120"
            role="img"
            aria-label={summary}
            style={{ display: "block" }}
            data-testid="memory-chart"
          >
            {bars.map((bar, index) => {
              const x = (offset + index) * slotWidth + 1.5;
              const width = slotWidth - 3;
              const rssHeight = Math.max(1, bar.rssShare * chartHeight);
              const heapHeight = bar.heapShare === null ? 0 : Math.max(1, bar.heapShare * chartHeight);
              return (
                <g key={bar.at}>
                  <title>{`${formatDateTime(bar.at)}: ${formatMegabytes(bar.rss)}`}</title>
                  <rect x={x} y={chartHeight - rssHeight} width={width} height={rssHeight} fill={rssColor} />
                  {heapHeight > 0 && (
                    <rect x={x} y={chartHeight - heapHeight} width={width} height={heapHeight} fill={heapColor} />
                  )}
                </g>
              );
            })}
          </svg>
        </Box>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <HStack gap="4">
            <Legend color={rssColor} label="Memoria residente (RSS)" />
            <Legend color={heapColor} label="Heap de JavaScript" />
          </HStack>
          <Text textStyle="xs" color="fg.muted">
            {bars.length === 1 ? "1 lectura" : `${bars.length} lecturas`} · la última a la derecha
          </Text>
        </HStack>
      </Stack>
      <Figures
        testId="memory-figures"
        items={[
          { label: "Última lectura", value: formatMegabytes(last.rss), note: formatDateTime(last.at) },
          { label: "Máximo del periodo", value: formatMegabytes(peak) },
          {
            label: "Heap usado (último)",
            value: last.heapUsed === null ? "—" : formatMegabytes(last.heapUsed),
            ...(last.heapUsed === null ? { note: "la plataforma no lo informa" } : {}),
          },
        ]}
      />
    </Stack>
  );
}
