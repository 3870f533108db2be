import { Table, Text } from "@chakra-ui/react";
import type { StageFigures } from "@dorsal/shared";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { formatCount } from "../../../lib/format";
import { formatDuration, performanceText, stageLabels } from "../api/format";

function Time({ ms }: { ms: number | null }) {
  return ms === null ? (
    <Text as="span" color="fg.muted" title={performanceText.noDataHour}>
      —
    </Text>
  ) : (
    formatDuration(ms)
  );
}

/**
 * Each measured stage over the last hour: how many photos went through it, the median and the
 * 95th percentile. The last row is a photo's whole path, from arriving in storage to searchable.
 */
export function StageTable({ stages }: { stages: StageFigures[] }) {
  return (
    <TableScrollArea label="Tiempos por etapa" borderWidth="1px" borderRadius="md">
      <Table.Root size="sm" aria-label="Tiempos por etapa">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Etapa</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Fotos</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Mediana</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">P95</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {stages.map((stage) => {
            const whole = stage.stage === "searchable";
            return (
              <Table.Row
                key={stage.stage}
                data-testid="performance-stage"
                bg={whole ? "blue.50" : undefined}
                fontWeight={whole ? "semibold" : undefined}
              >
                <Table.Cell minW="28" whiteSpace="normal">
                  {stageLabels[stage.stage]}
                  {stage.count === 0 && (
                    <Text textStyle="xs" color="fg.muted" fontWeight="normal">
                      {performanceText.noDataHour}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell textAlign="end">{formatCount(stage.count)}</Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  <Time ms={stage.p50Ms} />
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  <Time ms={stage.p95Ms} />
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </TableScrollArea>
  );
}
