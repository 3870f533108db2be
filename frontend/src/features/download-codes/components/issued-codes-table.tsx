import { Badge, Skeleton, Stack, Table, Text } from "@chakra-ui/react";
import { downloadsLeftText } from "@dorsal/shared";
import { EmptyState } from "../../../components/ui/empty-state";
import { TagIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { formatDateTime } from "../../../lib/format";
import { type CodeStatus, codeStatus, formatValidUntil } from "../api/code-message";
import { useIssuedCodes } from "../api/download-codes";

const statusBadges: Record<CodeStatus, { label: string; palette: string }> = {
  active: { label: "Vigente", palette: "green" },
  used: { label: "En uso", palette: "blue" },
  spent: { label: "Agotado", palette: "gray" },
  expired: { label: "Vencido", palette: "red" },
};

/**
 * The codes already issued for one event, so the organizer can answer "¿mi código sigue sirviendo?"
 * with the same words and number the customer sees in the code dialog.
 */
export function IssuedCodesTable({ eventId }: { eventId: number }) {
  const codes = useIssuedCodes(eventId);

  if (codes.isPending) {
    return (
      <Stack gap="2" aria-busy="true" aria-label="Cargando códigos">
        <Skeleton height="10" />
        <Skeleton height="10" />
      </Stack>
    );
  }
  if (codes.isError) {
    return <LoadError title="Error cargando códigos" query={codes} />;
  }
  if (codes.data.length === 0) {
    return (
      <EmptyState
        icon={<TagIcon />}
        title="No hay códigos para este evento"
        description="Los códigos que generes aparecerán aquí con su uso."
      />
    );
  }
  const now = new Date();
  return (
    <TableScrollArea label="Códigos generados" borderWidth="1px" borderRadius="md" bg="white">
      <Table.Root size="sm" aria-label="Códigos generados">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Código</Table.ColumnHeader>
            <Table.ColumnHeader>Dorsal</Table.ColumnHeader>
            <Table.ColumnHeader>Descargas</Table.ColumnHeader>
            <Table.ColumnHeader>Válido hasta</Table.ColumnHeader>
            <Table.ColumnHeader>Estado</Table.ColumnHeader>
            <Table.ColumnHeader>Creado</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {codes.data.map((code) => {
            const badge = statusBadges[codeStatus(code, now)];
            return (
              <Table.Row key={code.code} data-testid="issued-code-row">
                <Table.Cell fontFamily="mono" fontWeight="semibold">
                  {code.code}
                </Table.Cell>
                <Table.Cell>{code.dorsalNumber}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">
                  {downloadsLeftText({
                    fewest: code.remainingDownloads,
                    most: code.mostRemainingDownloads,
                    max: code.maxDownloads,
                  })}
                  {code.photoCount === 0 && (
                    <Text textStyle="xs" color="orange.700">
                      Sin fotos todavía
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatValidUntil(code.expiresAt)}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={badge.palette}>{badge.label}</Badge>
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatDateTime(code.createdAt)}</Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </TableScrollArea>
  );
}
