import { Button, Card, Heading, Text } from "@chakra-ui/react";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { toaster } from "../../../components/ui/toaster";
import { useResetSales } from "../api/reset-sales";

/**
 * Spec §2.7 and §5: restarting the month's sales asks for confirmation first. The spec's 'Resetear
 * contador' is worded plainly here (issue 17).
 */
export function ResetSalesCard() {
  const [confirming, setConfirming] = useState(false);
  const reset = useResetSales();

  const confirm = () => {
    setConfirming(false);
    reset.mutate(undefined, {
      onSuccess: () => toaster.create({ type: "success", title: "Ventas del mes reiniciadas" }),
    });
  };

  return (
    <Card.Root as="section" aria-labelledby="reset-sales-title">
      <Card.Header>
        <Heading as="h2" size="lg" id="reset-sales-title">
          Ventas del mes
        </Heading>
      </Card.Header>
      <Card.Body>
        <Text color="fg.muted" mb="4">
          Ventas del Mes, en el panel, vuelve a cero y cuenta solo las ventas desde ahora. Las ventas registradas no se
          borran.
        </Text>
        <Button
          colorPalette="red"
          variant="outline"
          alignSelf="flex-start"
          onClick={() => setConfirming(true)}
          loading={reset.isPending}
        >
          Reiniciar ventas del mes
        </Button>
      </Card.Body>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="¿Reiniciar las ventas del mes?"
        confirmLabel="Reiniciar"
        onConfirm={confirm}
      >
        <Text>
          Ventas del Mes volverá a cero y contará solo las ventas desde ahora. Las ventas ya registradas no se borran.
          No se puede deshacer.
        </Text>
      </ConfirmDialog>
    </Card.Root>
  );
}
