import {
  Alert,
  Box,
  Button,
  Card,
  Code,
  chakra,
  Heading,
  HStack,
  List,
  Skeleton,
  Stack,
  Table,
  Text,
} from "@chakra-ui/react";
import { idParam, type StartListImportResponse, startListLimits } from "@dorsal/shared";
import { type ChangeEvent, useRef, useState } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { EmptyState } from "../../../components/ui/empty-state";
import { ArrowLeftIcon, TagIcon, TrashIcon, UploadIcon, UserIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { toaster } from "../../../components/ui/toaster";
import { ApiError } from "../../../lib/api-fetch";
import { formatCount, formatDateTime, formatEventDate } from "../../../lib/format";
import { useEvent } from "../../../lib/queries/events";
import { useDeleteStartList, useImportStartList, useParticipants } from "../api/participants";
import { changedPhotosText, useReindex } from "../hooks/use-reindex";

const participantsText = (count: number) => `${formatCount(count)} ${count === 1 ? "participante" : "participantes"}`;
const photosText = (count: number) =>
  `${formatCount(count)} ${count === 1 ? "foto ya procesada" : "fotos ya procesadas"}`;

const csvExample = "dorsal;nombre;correo;categoría\n101;Ana Gómez;ana@correo.com;F30\n102;Luis Pérez;;M40";

/** What the organizer needs to prepare the file; shown when the event has no list yet. */
function CsvFormatHelp() {
  return (
    <Stack gap="2" textAlign="start" maxW="lg" textStyle="sm">
      <Text>
        Un archivo CSV con una línea de encabezados y un participante por línea. Columnas: <strong>dorsal</strong> (o
        número) y <strong>nombre</strong>, obligatorias; <strong>correo</strong> y <strong>categoría</strong>,
        opcionales. Separado por punto y coma (como lo guarda Excel) o por comas.
      </Text>
      <Code as="pre" display="block" whiteSpace="pre" overflowX="auto" p="3" textStyle="xs">
        {csvExample}
      </Code>
      <Text color="fg.muted">
        Con la lista, un número leído en una foto que no está inscrito no se publica: aparece en la revisión de dorsales
        como sugerencia con los dorsales inscritos más parecidos.
      </Text>
    </Stack>
  );
}

type ImportOutcome =
  | { kind: "imported"; result: StartListImportResponse; fileName: string }
  | { kind: "refused"; message: string; lines: string[]; fileName: string };

function ImportOutcomeView({ outcome, reindex }: { outcome: ImportOutcome; reindex: ReturnType<typeof useReindex> }) {
  if (outcome.kind === "refused") {
    return (
      <Alert.Root status="error" role="alert" alignItems="flex-start">
        <Alert.Indicator />
        <Alert.Content minW="0">
          <Alert.Title overflowWrap="anywhere">
            «{outcome.fileName}»: {outcome.message}
          </Alert.Title>
          {outcome.lines.length > 0 && (
            <Alert.Description asChild>
              <List.Root as="ul" ps="4" mt="2" maxH="48" overflowY="auto" gap="0.5" textStyle="sm">
                {outcome.lines.map((line) => (
                  <List.Item key={line} overflowWrap="anywhere">
                    {line}
                  </List.Item>
                ))}
              </List.Root>
            </Alert.Description>
          )}
        </Alert.Content>
      </Alert.Root>
    );
  }
  const { imported, processedPhotos } = outcome.result;
  return (
    <Alert.Root status="success" alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content minW="0">
        <Alert.Title>{participantsText(imported)} importados</Alert.Title>
        {processedPhotos > 0 && (
          <Alert.Description>
            <Stack gap="2" mt="1" align="flex-start">
              <Text>
                Las {photosText(processedPhotos)} conservan sus dorsales hasta que re-indexes: así la lista se aplica
                también a ellas.
              </Text>
              <ReindexButton reindex={reindex} />
            </Stack>
          </Alert.Description>
        )}
      </Alert.Content>
    </Alert.Root>
  );
}

function ReindexButton({ reindex }: { reindex: ReturnType<typeof useReindex> }) {
  if (reindex.state.running) {
    return (
      <HStack gap="3" wrap="wrap" aria-live="polite">
        <Text textStyle="sm">
          {formatCount(reindex.state.processed)} fotos revisadas · {changedPhotosText(reindex.state.changed)}
        </Text>
        <Button size="xs" variant="outline" onClick={reindex.cancel}>
          Cancelar
        </Button>
      </HStack>
    );
  }
  return (
    <Button size="sm" colorPalette="blue" onClick={() => void reindex.start()}>
      Re-indexar dorsales ahora
    </Button>
  );
}

function ImportCard({ eventId, currentCount }: { eventId: number; currentCount: number | null }) {
  const input = useRef<HTMLInputElement>(null);
  const importList = useImportStartList(eventId);
  const reindex = useReindex(eventId);
  const [pending, setPending] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);

  const upload = async (file: File) => {
    setPending(null);
    setOutcome(null);
    try {
      const result = await importList.mutateAsync(file);
      setOutcome({ kind: "imported", result, fileName: file.name });
    } catch (error) {
      setOutcome({
        kind: "refused",
        message: error instanceof Error ? error.message : String(error),
        lines: error instanceof ApiError ? (error.details ?? []).map((detail) => detail.message) : [],
        fileName: file.name,
      });
    }
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again after fixing it must fire a change too.
    event.target.value = "";
    if (!file) return;
    if (file.size > startListLimits.maxBytes) {
      setOutcome({
        kind: "refused",
        message: `El archivo supera el máximo de ${startListLimits.maxBytes / (1024 * 1024)} MB`,
        lines: [],
        fileName: file.name,
      });
      return;
    }
    if (currentCount) setPending(file);
    else void upload(file);
  };

  return (
    <Card.Root as="section" aria-labelledby="import-title" size="sm">
      <Card.Header>
        <Heading as="h2" size="md" id="import-title">
          {currentCount ? "Reemplazar la lista" : "Importar la lista"}
        </Heading>
      </Card.Header>
      <Card.Body gap="3">
        <Text textStyle="sm" color="fg.muted">
          Archivo CSV con dorsal y nombre (correo y categoría opcionales). Si alguna línea tiene un error no se importa
          nada y la lista actual se mantiene: corrige el archivo y vuelve a importarlo.
        </Text>
        <chakra.input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          display="none"
          onChange={choose}
          aria-label="Archivo CSV de inscritos"
        />
        <Button
          colorPalette="blue"
          alignSelf="flex-start"
          onClick={() => input.current?.click()}
          loading={importList.isPending}
          loadingText="Importando..."
        >
          <UploadIcon /> Elegir archivo CSV
        </Button>
        {outcome && <ImportOutcomeView outcome={outcome} reindex={reindex} />}
      </Card.Body>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title="¿Reemplazar la lista de inscritos?"
        confirmLabel="Reemplazar"
        onConfirm={() => pending && void upload(pending)}
        colorPalette="blue"
      >
        <Text overflowWrap="anywhere">
          La lista actual ({participantsText(currentCount ?? 0)}) se reemplaza por la de «{pending?.name}».
        </Text>
      </ConfirmDialog>
    </Card.Root>
  );
}

function DeleteListButton({ eventId, count }: { eventId: number; count: number }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteStartList(eventId);
  const confirm = async () => {
    try {
      const result = await remove.mutateAsync();
      setOpen(false);
      toaster.create({
        type: "success",
        title: "Lista de inscritos borrada",
        description:
          result.processedPhotos > 0
            ? `Re-indexa los dorsales para que las ${photosText(result.processedPhotos)} publiquen de nuevo todas sus lecturas.`
            : undefined,
      });
    } catch {
      // The query client reported the failure; the dialog stays open for another try.
    }
  };
  return (
    <>
      <Button size="sm" variant="outline" colorPalette="red" onClick={() => setOpen(true)}>
        <TrashIcon /> Borrar lista
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="¿Borrar la lista de inscritos?"
        confirmLabel="Borrar lista"
        onConfirm={confirm}
        pending={remove.isPending}
        pendingText="Borrando..."
      >
        <Stack gap="2">
          <Text>Se borran los {participantsText(count)} y sus nombres.</Text>
          <Text>
            Sin lista, todo número leído se publica como dorsal: en las fotos ya procesadas, después de re-indexar. Los
            dorsales aceptados o agregados a mano se mantienen.
          </Text>
        </Stack>
      </ConfirmDialog>
    </>
  );
}

function ParticipantsSection({
  eventId,
  participants,
}: {
  eventId: number;
  participants: ReturnType<typeof useParticipants>;
}) {
  if (participants.isPending) return <Skeleton height="40" />;
  if (participants.isError) return <LoadError title="Error cargando la lista de inscritos" query={participants} />;
  const [first] = participants.data.pages;
  const list = first?.startList;
  if (!list) {
    return (
      <EmptyState
        icon={<UserIcon />}
        title="Este evento no tiene lista de inscritos"
        description="Sin lista, todo número que se lee en una foto se publica como dorsal."
      >
        <CsvFormatHelp />
      </EmptyState>
    );
  }
  const rows = participants.data.pages.flatMap((page) => page.participants);
  return (
    <Card.Root as="section" aria-labelledby="participants-title" size="sm">
      <Card.Header>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Box>
            <Heading as="h2" size="md" id="participants-title">
              {participantsText(list.count)}
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              Importada el {formatDateTime(list.importedAt)}
            </Text>
          </Box>
          <DeleteListButton eventId={eventId} count={list.count} />
        </HStack>
      </Card.Header>
      <Card.Body gap="3">
        <TableScrollArea label="Inscritos">
          <Table.Root size="sm" striped>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Dorsal</Table.ColumnHeader>
                <Table.ColumnHeader>Nombre</Table.ColumnHeader>
                <Table.ColumnHeader>Categoría</Table.ColumnHeader>
                <Table.ColumnHeader>Correo</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Fotos</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((participant) => (
                <Table.Row key={participant.dorsalNumber}>
                  <Table.Cell fontWeight="semibold" fontVariantNumeric="tabular-nums">
                    {participant.dorsalNumber}
                  </Table.Cell>
                  <Table.Cell minW="40">{participant.name}</Table.Cell>
                  <Table.Cell>{participant.category ?? "—"}</Table.Cell>
                  <Table.Cell>{participant.email ?? "—"}</Table.Cell>
                  <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                    {formatCount(participant.photoCount)}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </TableScrollArea>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Text textStyle="sm" color="fg.muted">
            Mostrando {formatCount(rows.length)} de {formatCount(list.count)}
          </Text>
          {participants.hasNextPage && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => void participants.fetchNextPage()}
              loading={participants.isFetchingNextPage}
              loadingText="Cargando..."
            >
              Ver más
            </Button>
          )}
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function StartList({ eventId }: { eventId: number }) {
  const event = useEvent(eventId);
  const participants = useParticipants(eventId);
  const count = participants.data?.pages[0]?.startList?.count ?? null;
  return (
    <Box>
      <PageHeader
        title="Lista de inscritos"
        subtitle={event.data ? `${event.data.name} · ${formatEventDate(event.data.date)}` : undefined}
        actions={
          <HStack gap="2" wrap="wrap">
            <Button asChild variant="outline" size="sm">
              <RouterLink to="/events">
                <ArrowLeftIcon /> Eventos
              </RouterLink>
            </Button>
            <Button asChild variant="outline" size="sm" colorPalette="blue">
              <RouterLink to={`/events/${eventId}/dorsales`}>
                <TagIcon /> Revisar dorsales
              </RouterLink>
            </Button>
          </HStack>
        }
      />
      <Stack gap="6">
        {event.isError && !event.data && <LoadError title="Error cargando el evento" query={event} />}
        <ImportCard eventId={eventId} currentCount={count} />
        <ParticipantsSection eventId={eventId} participants={participants} />
      </Stack>
    </Box>
  );
}

/** Issue 18: an event's start list — import a CSV, see who is on it, delete it. */
export function StartListPage() {
  const params = useParams();
  const eventId = idParam.safeParse(params.eventId);
  if (!eventId.success) {
    return (
      <Stack gap="4">
        <PageHeader title="Lista de inscritos" />
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>Evento no encontrado</Alert.Title>
        </Alert.Root>
      </Stack>
    );
  }
  return <StartList key={eventId.data} eventId={eventId.data} />;
}
