import { Button, Dialog, Portal, Stack, Text } from "@chakra-ui/react";
import { type PricingCurrency, pricingMessages } from "@dorsal/shared";
import { useRef } from "react";

interface CurrencyChangeDialogProps {
  /** The currency the organizer picked; null while no change is asked. */
  next: PricingCurrency | null;
  current: PricingCurrency;
  /** The base price as written now, formatted in the current currency, to show what would be lost. */
  currentBasePrice: string | null;
  onConfirm: (currency: PricingCurrency) => void;
  onCancel: () => void;
}

/**
 * Prices have no exchange rate here, so '10.000' in pesos must never quietly become 10.000 dollars:
 * changing the currency clears the prices, after the organizer has read that it does.
 */
export function CurrencyChangeDialog({
  next,
  current,
  currentBasePrice,
  onConfirm,
  onCancel,
}: CurrencyChangeDialogProps) {
  const keepButton = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root
      open={next !== null}
      onOpenChange={(details) => !details.open && onCancel()}
      role="alertdialog"
      lazyMount
      unmountOnExit
      initialFocusEl={() => keepButton.current}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>¿Cambiar la moneda a {next}?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text>
                  Los precios no se convierten. Los de ahora están en {current}
                  {currentBasePrice ? ` (precio base ${currentBasePrice})` : ""}: al cambiar se borran el precio base y
                  los de los descuentos, para que los escribas en {next}.
                </Text>
                {next !== "COP" && <Text color="orange.700">{pricingMessages.gatewayPesosOnly}</Text>}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch">
              <Button ref={keepButton} variant="outline" onClick={onCancel}>
                Mantener {current}
              </Button>
              <Button colorPalette="blue" onClick={() => next && onConfirm(next)}>
                Cambiar a {next}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
