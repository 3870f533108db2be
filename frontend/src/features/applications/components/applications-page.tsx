import { Badge, Box, Button, Card, Field, NativeSelect, Spinner, Stack, Table, Text } from "@chakra-ui/react";
import {
  type ApplicationStatus,
  type ApprovedApplicationResponse,
  applicationStatuses,
  type PhotographerApplicationDto,
} from "@dorsal/shared/applications";
import { useState } from "react";
import { EmptyState } from "../../../components/ui/empty-state";
import { CameraIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { LoadMoreButton } from "../../../components/ui/load-more-button";
import { PageHeader } from "../../../components/ui/page-header";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { formatDateTime } from "../../../lib/format";
import { useEvents } from "../../../lib/queries/events";
import { useApplications } from "../api/applications";
import { experienceLabels, statusLabels } from "../api/labels";
import { ApplicationDialog } from "./application-dialog";
import { CredentialsDialog } from "./credentials-dialog";

type Filter = ApplicationStatus | "all";

function ApplicationRow({ application, onOpen }: { application: PhotographerApplicationDto; onOpen: () => void }) {
  const status = statusLabels[application.status];
  return (
    <Table.Row data-testid="application-row">
      <Table.Cell>
        <Text fontWeight="medium">{application.fullName}</Text>
        <Text textStyle="xs" color="fg.muted" wordBreak="break-all">
          {application.email}
        </Text>
      </Table.Cell>
      <Table.Cell>{application.city}</Table.Cell>
      <Table.Cell>{experienceLabels[application.experience]}</Table.Cell>
      <Table.Cell whiteSpace="nowrap">{formatDateTime(application.createdAt)}</Table.Cell>
      <Table.Cell>
        <Badge colorPalette={status.palette}>{status.label}</Badge>
      </Table.Cell>
      <Table.Cell textAlign="end">
        <Button size="sm" variant="outline" onClick={onOpen} aria-label={`Ver aplicación de ${application.fullName}`}>
          Ver
        </Button>
      </Table.Cell>
    </Table.Row>
  );
}

/** Photographer applications sent from /soy-fotografo: filter by status, read one, approve or reject it. */
export function ApplicationsPage() {
  const [filter, setFilter] = useState<Filter>("pending");
  const [openId, setOpenId] = useState<string | null>(null);
  const [approval, setApproval] = useState<ApprovedApplicationResponse | null>(null);
  const applications = useApplications(filter === "all" ? undefined : filter);
  const events = useEvents();
  const list = applications.data?.pages.flatMap((page) => page.applications) ?? [];
  // Looked up by id so the dialog shows the list's latest copy after a review refreshes it.
  const open = list.find((application) => application.id === openId) ?? null;

  const approved = (response: ApprovedApplicationResponse) => {
    setOpenId(null);
    setApproval(response);
  };

  return (
    <Box>
      <PageHeader
        title="Aplicaciones de fotógrafos"
        subtitle="Solicitudes enviadas desde Soy fotógrafo: apruébalas con un evento o recházalas con notas"
      />
      <Stack gap="4">
        <Field.Root maxW="xs">
          <Field.Label>Estado</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value as Filter)}
              bg="white"
            >
              {applicationStatuses.map((status) => (
                <option key={status} value={status}>
                  {statusLabels[status].plural}
                </option>
              ))}
              <option value="all">Todas</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>

        {applications.isError ? (
          <LoadError title="Error cargando aplicaciones" query={applications} />
        ) : applications.isPending ? (
          <Spinner aria-label="Cargando aplicaciones" />
        ) : list.length === 0 ? (
          <EmptyState
            icon={<CameraIcon />}
            title={
              filter === "all"
                ? "Aún no hay aplicaciones"
                : `No hay aplicaciones ${statusLabels[filter].plural.toLowerCase()}`
            }
            description="Los fotógrafos aplican desde la página Soy fotógrafo, enlazada al pie de cada página pública."
          />
        ) : (
          <Card.Root>
            <TableScrollArea label="Aplicaciones">
              <Table.Root size="sm" aria-label="Aplicaciones">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Fotógrafo</Table.ColumnHeader>
                    <Table.ColumnHeader>Ciudad</Table.ColumnHeader>
                    <Table.ColumnHeader>Experiencia</Table.ColumnHeader>
                    <Table.ColumnHeader>Recibida</Table.ColumnHeader>
                    <Table.ColumnHeader>Estado</Table.ColumnHeader>
                    <Table.ColumnHeader />
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {list.map((application) => (
                    <ApplicationRow
                      key={application.id}
                      application={application}
                      onOpen={() => setOpenId(application.id)}
                    />
                  ))}
                </Table.Body>
              </Table.Root>
            </TableScrollArea>
          </Card.Root>
        )}
        <LoadMoreButton list={applications} />
      </Stack>

      <ApplicationDialog
        application={open}
        events={events.data ?? []}
        onClose={() => setOpenId(null)}
        onApproved={approved}
      />
      <CredentialsDialog approval={approval} onClose={() => setApproval(null)} />
    </Box>
  );
}
