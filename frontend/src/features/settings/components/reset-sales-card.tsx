import { Button, Card, Dialog, Heading, Portal, Text } from "@chakra-ui/react";
import { useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { useResetSales } from "../api/reset-sales";

/** Spec §2.7 and §5: resetting the monthly sales counter asks for confirmation first. */
export function ResetSalesCard() {
  const [confirming, setConfirming] = useState(false);
  const reset = useResetSales();

  const confirm = () => {
    setConfirming(false);
    reset.mutate(undefined, {
      onSuccess: () => toaster.create({ type: "success", title: "Contador de ventas reseteado" }),
      onError: () =>
        toaster.create({ type: "error", title: "Error", description: "No se pudo resetear el contador de ventas" }),
    });
  };

  return (
    <Card.Root as="section" aria-labelledby="reset-sales-title">
      <Card.Header>
        <Heading as="h2" size="lg" id="reset-sales-title">
          Contador de ventas del mes
        </Heading>
      </Card.Header>
      <Card.Body>
        <Text color="fg.muted" mb="4">
          Ventas del Mes, en el dashboard, vuelve a cero y cuenta solo las ventas desde ahora. Las ventas registradas no
          se borran.
        </Text>
        <Button colorPalette="red" variant="outline" onClick={() => setConfirming(true)} loading={reset.isPending}>
          Resetear contador de ventas
        </Button>
      </Card.Body>
      <Dialog.Root open={confirming} onOpenChange={(details) => setConfirming(details.open)} role="alertdialog">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>¿Resetear el contador de ventas?</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Text>El contador de ventas del mes volverá a cero. Esta acción no se puede deshacer.</Text>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => setConfirming(false)}>
                  Cancelar
                </Button>
                <Button colorPalette="red" onClick={confirm}>
                  Resetear
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Card.Root>
  );
}
