import { Stack, Text } from "@chakra-ui/react";
import { type PricingCurrency, pricingMessages } from "@dorsal/shared";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";

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
  return (
    <ConfirmDialog
      open={next !== null}
      onOpenChange={(open) => !open && onCancel()}
      title={<>¿Cambiar la moneda a {next}?</>}
      cancelLabel={<>Mantener {current}</>}
      confirmLabel={<>Cambiar a {next}</>}
      onConfirm={() => next && onConfirm(next)}
      colorPalette="blue"
    >
      <Stack gap="3">
        <Text>
          Los precios no se convierten. Los de ahora están en {current}
          {currentBasePrice ? ` (precio base ${currentBasePrice})` : ""}: al cambiar se borran el precio base y los de
          los descuentos, para que los escribas en {next}.
        </Text>
        {next !== "COP" && <Text color="orange.700">{pricingMessages.gatewayPesosOnly}</Text>}
      </Stack>
    </ConfirmDialog>
  );
}
