import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Field,
  HStack,
  Input,
  Link,
  Skeleton,
  Stack,
  Table,
  Text,
} from "@chakra-ui/react";
import { type AdminSaleDto, type AdminSaleLink, formatPrice, mailMessages, type SaleStatus } from "@dorsal/shared";
import { type FormEvent, useState } from "react";
import { Link as RouterLink } from "react-router";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { EmptyState } from "../../../components/ui/empty-state";
import { EventSelect } from "../../../components/ui/event-select";
import { TagIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { LoadMoreButton } from "../../../components/ui/load-more-button";
import { PageHeader } from "../../../components/ui/page-header";
import { TableScrollArea } from "../../../components/ui/table-scroll-area";
import { useCopy } from "../../../components/ui/use-copy";
import { formatDateTime } from "../../../lib/format";
import { newestEvent, useEvents } from "../../../lib/queries/events";
import { useEventSales, useNewSaleLink } from "../api/sales";

const statusBadges: Record<SaleStatus, { label: string; palette: string }> = {
  pending: { label: "Pendiente", palette: "yellow" },
  paid: { label: "Pagada", palette: "green" },
  declined: { label: "Rechazada", palette: "red" },
  voided: { label: "Anulada", palette: "gray" },
  error: { label: "Error", palette: "red" },
};

const linkOpen = (sale: AdminSaleDto, now: Date) =>
  sale.status === "paid" && (sale.expiresAt === null || Date.parse(sale.expiresAt) > now.getTime());

/** Whether the buyer got the new link by email: sent (see it in 'Correos enviados'), or to send by hand. */
function MailNote({ mail }: { mail: NonNullable<AdminSaleLink["mail"]> }) {
  return (
    <Alert.Root status={mail.sent ? "success" : "warning"} size="sm">
      <Alert.Indicator />
      <Alert.Description>
        {mail.sent ? (
          <>
            Enviado por correo a {mail.to}.{" "}
            <Link asChild textDecoration="underline">
              <RouterLink to="/admin/outbox">Ver en Correos enviados</RouterLink>
            </Link>
          </>
        ) : (
          `${mailMessages.notSent} a ${mail.to}: copia el enlace y envíaselo.`
        )}
      </Alert.Description>
    </Alert.Root>
  );
}

/** The link just made, to copy and send to the buyer: it is shown once, never stored in the clear. */
function NewLinkCard({ sale, link, onClose }: { sale: AdminSaleDto; link: AdminSaleLink; onClose: () => void }) {
  const { copied, copy } = useCopy(link.downloadUrl);
  return (
    <Card.Root borderColor="green.300" role="status">
      <Card.Body gap="3">
        <Text fontWeight="semibold">Nuevo enlace de descarga para {sale.customerName}</Text>
        <Text textStyle="sm" color="fg.muted">
          Los enlaces anteriores ya no funcionan.{link.mail ? "" : ` Envíalo a ${sale.customerEmail}.`}
          {link.expiresAt ? ` Vence el ${formatDateTime(link.expiresAt)}.` : ""}
        </Text>
        {link.mail && <MailNote mail={link.mail} />}
        <Field.Root>
          <Field.Label>Enlace</Field.Label>
          <Input value={link.downloadUrl} readOnly onFocus={(event) => event.currentTarget.select()} bg="white" />
        </Field.Root>
        <HStack gap="2" wrap="wrap">
          <Button size="sm" colorPalette="blue" onClick={() => void copy()}>
            {copied ? "¡Copiado!" : "Copiar enlace"}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClose}>
            Cerrar
          </Button>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function SalesTable({ sales, onNewLink }: { sales: AdminSaleDto[]; onNewLink: (sale: AdminSaleDto) => void }) {
  const now = new Date();
  return (
    <TableScrollArea label="Ventas del evento" borderWidth="1px" borderRadius="md" bg="white">
      <Table.Root size="sm" aria-label="Ventas del evento">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Fecha</Table.ColumnHeader>
            <Table.ColumnHeader>Comprador</Table.ColumnHeader>
            <Table.ColumnHeader>Referencia</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Fotos</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Monto</Table.ColumnHeader>
            <Table.ColumnHeader>Estado</Table.ColumnHeader>
            <Table.ColumnHeader>Descargas</Table.ColumnHeader>
            <Table.ColumnHeader>
              <Box srOnly>Acciones</Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {sales.map((sale) => {
            const badge = statusBadges[sale.status];
            return (
              <Table.Row key={sale.id} data-testid="sale-row">
                <Table.Cell whiteSpace="nowrap">{formatDateTime(sale.paidAt ?? sale.createdAt)}</Table.Cell>
                <Table.Cell>
                  <Text>{sale.customerName}</Text>
                  <Text textStyle="xs" color="fg.muted">
                    {sale.customerEmail}
                  </Text>
                </Table.Cell>
                <Table.Cell fontFamily="mono" textStyle="xs" whiteSpace="nowrap">
                  {sale.reference}
                </Table.Cell>
                <Table.Cell textAlign="end">{sale.photoIds.length}</Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {formatPrice(sale.amount)}
                </Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={badge.palette}>{badge.label}</Badge>
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">
                  {sale.downloadsLeft === null ? "—" : `${sale.downloadsLeft} de ${sale.maxDownloads}`}
                </Table.Cell>
                <Table.Cell>
                  {linkOpen(sale, now) && (
                    <Button
                      size="xs"
                      variant="outline"
                      onClick={() => onNewLink(sale)}
                      aria-label={`Nuevo enlace para ${sale.customerName} (${sale.reference})`}
                    >
                      Nuevo enlace
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </TableScrollArea>
  );
}

/**
 * The admin's sales (issue 22): an event's purchases with their buyer, amount, state and the
 * downloads left; found by the buyer's email or the reference; and, for a buyer who lost the link,
 * a new one to send (the old one stops working).
 */
export function SalesPage() {
  const events = useEvents();
  const [chosen, setChosen] = useState<number | null>(null);
  const eventId = chosen ?? newestEvent(events.data ?? [])?.id ?? null;
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const sales = useEventSales(eventId, search);
  const newLink = useNewSaleLink();
  const [asked, setAsked] = useState<AdminSaleDto | null>(null);
  const [sendEmail, setSendEmail] = useState(true);
  const [made, setMade] = useState<{ sale: AdminSaleDto; link: AdminSaleLink } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
  };
  const confirmNewLink = () => {
    if (!asked) return;
    newLink.mutate(
      { saleId: asked.id, sendEmail },
      {
        onSuccess: (link) => {
          setMade({ sale: asked, link });
          setAsked(null);
        },
      },
    );
  };
  const listed = sales.data?.pages.flatMap((page) => page.sales) ?? [];

  return (
    <Box>
      <PageHeader title="Ventas" subtitle="Las compras de cada evento: comprador, monto, estado y descargas" />
      <Stack gap="5">
        <Card.Root>
          <Card.Body>
            <Stack direction={{ base: "column", md: "row" }} gap="4" align={{ md: "flex-end" }}>
              <Box flex="1" minW="0">
                {events.isPending ? (
                  <Skeleton height="16" />
                ) : events.isError ? (
                  <LoadError title="Error cargando eventos" query={events} />
                ) : (
                  <EventSelect
                    events={events.data}
                    value={eventId}
                    onChange={(id) => {
                      setChosen(id);
                      setMade(null);
                    }}
                  />
                )}
              </Box>
              <Box as="form" flex="1" minW="0" onSubmit={submit} role="search" aria-label="Buscar ventas">
                <Field.Root>
                  <Field.Label>Correo o referencia</Field.Label>
                  <HStack gap="2">
                    <Input
                      value={typed}
                      onChange={(event) => setTyped(event.currentTarget.value)}
                      placeholder="ana@correo.com o DOR-…"
                      maxLength={200}
                      bg="white"
                    />
                    <Button type="submit" colorPalette="blue">
                      Buscar
                    </Button>
                  </HStack>
                </Field.Root>
              </Box>
            </Stack>
          </Card.Body>
        </Card.Root>
        {made && <NewLinkCard sale={made.sale} link={made.link} onClose={() => setMade(null)} />}
        {eventId === null ? (
          <EmptyState icon={<TagIcon />} title="Elige un evento" description="Sus ventas aparecerán aquí." />
        ) : sales.isPending ? (
          <Stack gap="2" aria-busy="true" aria-label="Cargando ventas">
            <Skeleton height="10" />
            <Skeleton height="10" />
          </Stack>
        ) : sales.isError ? (
          <LoadError title="Error cargando las ventas" query={sales} />
        ) : listed.length === 0 ? (
          <EmptyState
            icon={<TagIcon />}
            title={search ? `Ninguna venta coincide con «${search}»` : "Este evento aún no tiene ventas"}
            description={
              search
                ? "Busca por una parte del correo del comprador o de la referencia (DOR-…)."
                : "Las compras de sus fotos aparecerán aquí."
            }
          />
        ) : (
          <Stack gap="3">
            <SalesTable sales={listed} onNewLink={setAsked} />
            <LoadMoreButton list={sales} />
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        title="¿Dar un nuevo enlace de descarga?"
        confirmLabel="Crear enlace"
        colorPalette="blue"
        onConfirm={confirmNewLink}
        pending={newLink.isPending}
        pendingText="Creando…"
      >
        <Stack gap="4">
          <Text>
            Los enlaces que tiene {asked?.customerName} dejarán de funcionar. El nuevo conserva las descargas que le
            quedan.
          </Text>
          <Checkbox.Root checked={sendEmail} onCheckedChange={(change) => setSendEmail(change.checked === true)}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Enviar al comprador por correo ({asked?.customerEmail})</Checkbox.Label>
          </Checkbox.Root>
        </Stack>
      </ConfirmDialog>
    </Box>
  );
}
