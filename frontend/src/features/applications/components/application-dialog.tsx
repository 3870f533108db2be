import {
  Badge,
  Button,
  DataList,
  Dialog,
  Field,
  Heading,
  Link,
  Portal,
  Separator,
  Stack,
  Text,
  Textarea,
} from "@chakra-ui/react";
import { type EventDto, mailMessages } from "@dorsal/shared";
import {
  type ApprovedApplicationResponse,
  applicationLimits,
  type PhotographerApplicationDto,
} from "@dorsal/shared/applications";
import { type ReactNode, useState } from "react";
import { EventSelect } from "../../../components/ui/event-select";
import { toaster } from "../../../components/ui/toaster";
import { formatDateTime } from "../../../lib/format";
import { useApproveApplication, useRejectApplication } from "../api/applications";
import { availabilityLabels, cameraTypeLabels, experienceLabels, statusLabels } from "../api/labels";

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue whiteSpace="pre-wrap" wordBreak="break-word">
        {children ?? "—"}
      </DataList.ItemValue>
    </DataList.Item>
  );
}

function Review({
  application,
  events,
  onApproved,
  onRejected,
}: {
  application: PhotographerApplicationDto;
  events: EventDto[];
  onApproved: (response: ApprovedApplicationResponse) => void;
  onRejected: () => void;
}) {
  const [eventId, setEventId] = useState<number | null>(null);
  const [eventError, setEventError] = useState<string | undefined>();
  const [notes, setNotes] = useState("");
  const approve = useApproveApplication();
  const reject = useRejectApplication();
  const busy = approve.isPending || reject.isPending;

  const approveNow = () => {
    if (eventId === null) {
      setEventError("Selecciona el evento que cubrirá el fotógrafo");
      return;
    }
    approve.mutate({ id: application.id, eventId }, { onSuccess: onApproved });
  };

  const rejectNow = () =>
    reject.mutate(
      { id: application.id, adminNotes: notes },
      {
        onSuccess: ({ mail }) => {
          toaster.create(
            mail.sent
              ? {
                  type: "success",
                  title: "Aplicación rechazada",
                  description: `${application.fullName}: le enviamos el resultado a ${mail.to}`,
                }
              : {
                  type: "warning",
                  title: "Aplicación rechazada",
                  description: `${mailMessages.notSent} a ${mail.to}`,
                },
          );
          onRejected();
        },
      },
    );

  return (
    <Stack gap="5">
      <Stack gap="3">
        <Heading as="h3" size="sm">
          Aprobar
        </Heading>
        <EventSelect
          events={events}
          value={eventId}
          onChange={(id) => {
            setEventId(id);
            setEventError(undefined);
          }}
          label="Evento asignado"
          invalid={Boolean(eventError)}
          errorText={eventError}
          disabled={busy}
        />
        <Text textStyle="sm" color="fg.muted">
          Se crea una cuenta de fotógrafo con una contraseña generada, que verás una sola vez.
        </Text>
        <Button colorPalette="green" onClick={approveNow} loading={approve.isPending} disabled={busy}>
          Aprobar y crear cuenta
        </Button>
      </Stack>
      <Separator />
      <Stack gap="3">
        <Heading as="h3" size="sm">
          Rechazar
        </Heading>
        <Field.Root disabled={busy}>
          <Field.Label>Notas del rechazo</Field.Label>
          <Textarea
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            maxLength={applicationLimits.adminNotes}
            rows={3}
          />
          <Field.HelperText>Opcional; quedan guardadas con la aplicación.</Field.HelperText>
        </Field.Root>
        <Button variant="outline" colorPalette="red" onClick={rejectNow} loading={reject.isPending} disabled={busy}>
          Rechazar aplicación
        </Button>
      </Stack>
    </Stack>
  );
}

interface ApplicationDialogProps {
  application: PhotographerApplicationDto | null;
  events: EventDto[];
  onClose: () => void;
  onApproved: (response: ApprovedApplicationResponse) => void;
}

/** One application in full, with the review actions while it is pending. */
export function ApplicationDialog({ application, events, onClose, onApproved }: ApplicationDialogProps) {
  const eventName = (id: number | null) =>
    events.find((event) => event.id === id)?.name ?? (id ? `Evento ${id}` : null);
  return (
    <Dialog.Root
      open={application !== null}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: "full", md: "lg" }}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {application && (
              <>
                <Dialog.Header>
                  <Stack gap="1">
                    <Dialog.Title>{application.fullName}</Dialog.Title>
                    <Badge alignSelf="flex-start" colorPalette={statusLabels[application.status].palette}>
                      {statusLabels[application.status].label}
                    </Badge>
                  </Stack>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="6">
                    <DataList.Root orientation="horizontal" size="sm">
                      <Detail label="Correo">{application.email}</Detail>
                      <Detail label="Teléfono">{application.phone}</Detail>
                      <Detail label="Ciudad">{application.city}</Detail>
                      <Detail label="Experiencia">{experienceLabels[application.experience]}</Detail>
                      <Detail label="Disponibilidad">{availabilityLabels[application.availability]}</Detail>
                      <Detail label="Tipo de cámara">
                        {application.cameraType && cameraTypeLabels[application.cameraType]}
                      </Detail>
                      <Detail label="Modelo de cámara">{application.cameraModel}</Detail>
                      <Detail label="Lentes">{application.lensDetails}</Detail>
                      <Detail label="Portafolio">
                        {application.portfolioUrl && (
                          <Link
                            href={application.portfolioUrl}
                            target="_blank"
                            rel="noopener noreferrer"
                            color="blue.700"
                          >
                            {application.portfolioUrl}
                          </Link>
                        )}
                      </Detail>
                      <Detail label="Eventos anteriores">{application.previousEvents}</Detail>
                      <Detail label="Mensaje">{application.message}</Detail>
                      <Detail label="Recibida">{formatDateTime(application.createdAt)}</Detail>
                      {application.reviewedAt && (
                        <Detail label="Revisada">
                          {formatDateTime(application.reviewedAt)}
                          {application.reviewedByEmail ? ` por ${application.reviewedByEmail}` : ""}
                        </Detail>
                      )}
                      {application.status === "approved" && (
                        <Detail label="Evento asignado">{eventName(application.assignedEventId)}</Detail>
                      )}
                      {application.status === "rejected" && <Detail label="Notas">{application.adminNotes}</Detail>}
                    </DataList.Root>
                    {application.status === "pending" && (
                      <>
                        <Separator />
                        <Review
                          key={application.id}
                          application={application}
                          events={events}
                          onApproved={onApproved}
                          onRejected={onClose}
                        />
                      </>
                    )}
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline">Cerrar</Button>
                  </Dialog.ActionTrigger>
                </Dialog.Footer>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
