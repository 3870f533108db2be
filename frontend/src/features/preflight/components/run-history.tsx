import { Badge, Button, Table } from "@chakra-ui/react";
import type { PreflightRunDto } from "@dorsal/shared";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { formatDateTime } from "../../../lib/format";
import { formatDuration, stateLabels, triggerLabels } from "../api/format";
import { StatusBadge } from "./status-icon";

interface RunHistoryProps {
  runs: PreflightRunDto[];
  /** The run shown above the history. */
  shownId: string | null;
  onShow: (runId: string) => void;
  eventLabel: (eventId: number | null) => string;
}

/**
 * The latest runs, newest first. A run's start time is the button that shows it in the panels
 * above; what a phone sees without scrolling (start, status, time) comes first.
 */
export function RunHistory({ runs, shownId, onShow, eventLabel }: RunHistoryProps) {
  return (
    <TableScrollArea label="Historial de validaciones" borderWidth="1px" borderRadius="md" bg="white">
      <Table.Root size="sm" aria-label="Historial de validaciones">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Inicio</Table.ColumnHeader>
            <Table.ColumnHeader>Estado</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Tiempo total</Table.ColumnHeader>
            <Table.ColumnHeader>Ejecución</Table.ColumnHeader>
            <Table.ColumnHeader>Origen</Table.ColumnHeader>
            <Table.ColumnHeader>Solicitada por</Table.ColumnHeader>
            <Table.ColumnHeader>Evento</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {runs.map((run) => {
            const shown = run.id === shownId;
            const started = formatDateTime(run.startedAt);
            return (
              <Table.Row key={run.id} data-testid="preflight-history-run" bg={shown ? "blue.50" : undefined}>
                <Table.Cell whiteSpace="nowrap">
                  <Button
                    size="xs"
                    variant={shown ? "solid" : "outline"}
                    colorPalette="blue"
                    onClick={() => onShow(run.id)}
                    aria-pressed={shown}
                    aria-label={`Ver la validación del ${started}`}
                  >
                    {started}
                  </Button>
                </Table.Cell>
                <Table.Cell>{run.status ? <StatusBadge status={run.status} /> : "—"}</Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {run.totalMs === null ? "—" : formatDuration(run.totalMs)}
                </Table.Cell>
                <Table.Cell>
                  {run.state === "done" ? (
                    stateLabels.done
                  ) : (
                    <Badge colorPalette={run.state === "running" ? "blue" : "orange"} variant="outline">
                      {stateLabels[run.state]}
                    </Badge>
                  )}
                </Table.Cell>
                <Table.Cell>{triggerLabels[run.trigger]}</Table.Cell>
                <Table.Cell>{run.requestedBy ?? "—"}</Table.Cell>
                <Table.Cell>{eventLabel(run.eventId)}</Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </TableScrollArea>
  );
}
