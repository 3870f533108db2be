import { Alert, Button, CloseButton, Dialog, List, Portal, Spinner, Stack, Text } from "@chakra-ui/react";
import { type EventDto, formatPrice } from "@dorsal/shared";
import { useRef, useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { formatCount } from "../../../lib/format";
import { useEventSalesSummary, useSetFreePhotos } from "../api/free-photos";

/** What the organizer reads before freeing: who already paid for these photos. */
function SalesNotice({ eventId }: { eventId: number }) {
  const summary = useEventSalesSummary(eventId, true);
  if (summary.isPending) {
    return (
      <Stack direction="row" align="center" gap="2" color="fg.muted">
        <Spinner size="sm" />
        <Text>Consultando las ventas del evento…</Text>
      </Stack>
    );
  }
  if (summary.isError) {
    return <Text color="fg.error">No se pudieron consultar las ventas del evento.</Text>;
  }
  const { paidSales, paidAmount } = summary.data;
  if (paidSales === 0) return <Text>Este evento no tiene ventas.</Text>;
  return (
    <Alert.Root status="warning">
      <Alert.Indicator />
      <Alert.Description>
        Este evento ya tiene {formatCount(paidSales)} {paidSales === 1 ? "venta pagada" : "ventas pagadas"} (
        {formatPrice(paidAmount)}). Quienes compraron conservan sus descargas.
      </Alert.Description>
    </Alert.Root>
  );
}

/**
 * Spec §2.4/§4: 'Liberar Fotos Gratis' turns free photos on, 'Proteger Fotos' off; the button offers
 * whichever changes the event's current state. Either one changes at once what every visitor can
 * download, so it first says what it means (with the event's paid sales when freeing) and waits for
 * a confirmation; 'Cancelar' has the focus, so Enter alone never frees an event.
 */
export function FreePhotosButton({ event }: { event: EventDto }) {
  const setFreePhotos = useSetFreePhotos();
  const [open, setOpen] = useState(false);
  // Kept while the dialog closes, so its words do not flip when the event's state does.
  const [freeing, setFreeing] = useState(!event.freePhotosEnabled);
  const cancelButton = useRef<HTMLButtonElement>(null);

  const changeOpen = (next: boolean) => {
    if (setFreePhotos.isPending) return;
    if (next) setFreeing(!event.freePhotosEnabled);
    setOpen(next);
  };

  const confirm = () =>
    setFreePhotos.mutate(
      { eventId: event.id, enabled: freeing },
      {
        onSuccess: () => {
          setOpen(false);
          toaster.create(
            freeing
              ? { type: "success", title: "Fotos liberadas", description: `${event.name}: descarga gratuita activada` }
              : { type: "success", title: "Fotos protegidas", description: `${event.name}: fotos de pago otra vez` },
          );
        },
        onError: () =>
          toaster.create({
            type: "error",
            title: "Error",
            description: freeing ? "No se pudieron liberar las fotos" : "No se pudieron proteger las fotos",
          }),
      },
    );

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => changeOpen(details.open)}
      role="alertdialog"
      initialFocusEl={() => cancelButton.current}
      placement="center"
      lazyMount
      unmountOnExit
    >
      <Dialog.Trigger asChild>
        <Button
          size="xs"
          variant="outline"
          colorPalette={event.freePhotosEnabled ? "orange" : "green"}
          aria-label={`${event.freePhotosEnabled ? "Proteger Fotos" : "Liberar Fotos Gratis"} de ${event.name}`}
        >
          {event.freePhotosEnabled ? "Proteger Fotos" : "Liberar Fotos Gratis"}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header pe="12">
              <Dialog.Title>
                {freeing ? `¿Liberar gratis las fotos de ${event.name}?` : `¿Proteger las fotos de ${event.name}?`}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {freeing ? (
                <Stack gap="4">
                  <List.Root ps="5" gap="1.5">
                    <List.Item>
                      Cualquier persona podrá ver y descargar sin pagar todas las fotos del evento, con la marca
                      GRATIS/DEMO (no los originales).
                    </List.Item>
                    <List.Item>
                      Mientras estén liberadas, no se venden fotos de este evento ni se generan códigos de descarga.
                    </List.Item>
                  </List.Root>
                  <SalesNotice eventId={event.id} />
                </Stack>
              ) : (
                <Text>
                  Las fotos vuelven a mostrarse con marca de agua y solo se podrán descargar comprándolas o con un
                  código. Las descargas gratuitas dejan de funcionar de inmediato.
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch">
              <Dialog.ActionTrigger asChild>
                <Button ref={cancelButton} variant="outline" disabled={setFreePhotos.isPending}>
                  Cancelar
                </Button>
              </Dialog.ActionTrigger>
              <Button colorPalette={freeing ? "green" : "orange"} onClick={confirm} loading={setFreePhotos.isPending}>
                {freeing ? "Liberar fotos" : "Proteger fotos"}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Cerrar" disabled={setFreePhotos.isPending} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
