import { Alert, Button, CloseButton, Dialog, Field, Input, Portal, Stack, Text } from "@chakra-ui/react";
import type { EventDto } from "@dorsal/shared";
import { deleteEventRequest } from "@dorsal/shared/staff-requests";
import { type FormEvent, useRef, useState } from "react";
import { TrashIcon } from "../../../components/ui/icons";
import { toaster } from "../../../components/ui/toaster";
import { ApiError } from "../../../lib/api-fetch";
import { formatCounted } from "../../../lib/format";
import { useDeleteEvent } from "../api/delete-event";

/** Spec §8: the server's reason when it gave one, otherwise the catalogue's text. */
const deleteFailedMessage = "No se pudo eliminar el evento. Verifica la contraseña de administrador";

/**
 * Deleting an event removes its photos, bibs and files for good, so it needs a deliberate second
 * step: a dialog that names what goes and asks for the admin's own password (spec §2.4, §6).
 */
export function DeleteEventDialog({ event }: { event: EventDto }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const passwordRef = useRef<HTMLInputElement>(null);
  const deleteEvent = useDeleteEvent();

  const changeOpen = (next: boolean) => {
    // Closing mid-request would hide its outcome; the request finishes and reports first.
    if (deleteEvent.isPending) return;
    setOpen(next);
    setPassword("");
    setError(undefined);
  };

  const submit = async (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    const parsed = deleteEventRequest.safeParse({ adminPassword: password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? deleteFailedMessage);
      passwordRef.current?.focus();
      return;
    }
    // mutateAsync, not mutate's callbacks: the refreshed list drops this row (and this dialog)
    // before those callbacks would run, and the outcome must still be reported.
    try {
      await deleteEvent.mutateAsync({ eventId: event.id, ...parsed.data });
      setOpen(false);
      toaster.create({
        type: "success",
        title: "Eliminando evento",
        description: `${event.name} ya no aparece en la plataforma. Sus fotos y archivos se eliminan en segundo plano: sigue el avance en Eliminaciones.`,
      });
    } catch (failure) {
      const message = failure instanceof ApiError ? failure.message : deleteFailedMessage;
      setError(message);
      setPassword("");
      toaster.create({ type: "error", title: "Error al eliminar evento", description: message });
      passwordRef.current?.focus();
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => changeOpen(details.open)}
      role="alertdialog"
      initialFocusEl={() => passwordRef.current}
      placement="center"
    >
      <Dialog.Trigger asChild>
        <Button size="xs" variant="outline" colorPalette="red" aria-label={`Eliminar evento ${event.name}`}>
          <TrashIcon /> Eliminar
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <form onSubmit={submit} noValidate>
              <Dialog.Header pe="12">
                <Dialog.Title>Eliminar evento</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Alert.Root status="warning">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>{event.name}</Alert.Title>
                      <Alert.Description>
                        Se eliminarán {formatCounted(event.totalPhotos, "foto", "fotos")}, sus dorsales y todos sus
                        archivos. Esta acción no se puede deshacer.
                      </Alert.Description>
                    </Alert.Content>
                  </Alert.Root>
                  <Field.Root required invalid={Boolean(error)}>
                    <Field.Label>
                      Contraseña de administrador <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      ref={passwordRef}
                      type="password"
                      autoComplete="current-password"
                      value={password}
                      onChange={(change) => {
                        setPassword(change.currentTarget.value);
                        setError(undefined);
                      }}
                    />
                    {error ? (
                      <Field.ErrorText>{error}</Field.ErrorText>
                    ) : (
                      <Field.HelperText>Tu contraseña de inicio de sesión confirma la eliminación.</Field.HelperText>
                    )}
                  </Field.Root>
                  <Text srOnly aria-live="polite">
                    {deleteEvent.isPending ? "Eliminando evento…" : ""}
                  </Text>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch">
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline" disabled={deleteEvent.isPending}>
                    Cancelar
                  </Button>
                </Dialog.ActionTrigger>
                <Button type="submit" colorPalette="red" loading={deleteEvent.isPending} loadingText="Eliminando...">
                  Eliminar evento
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Cerrar" disabled={deleteEvent.isPending} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
