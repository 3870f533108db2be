import {
  Alert,
  Box,
  Button,
  Card,
  Field,
  Grid,
  Heading,
  HStack,
  Input,
  Separator,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from "@chakra-ui/react";
import {
  type EventPricingDto,
  formatPrice,
  priceForPhotoCount,
  pricingLimits,
  pricingMessages,
  pricingTiers,
} from "@dorsal/shared";
import { type FormEvent, useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { ApiError } from "../../../lib/api-fetch";
import { formatDateTime } from "../../../lib/format";
import { useSaveEventPricing } from "../api/event-pricing";
import {
  type Draft,
  discountLabel,
  discountTiers,
  draftRules,
  type FieldErrors,
  type NumberField,
  parseDraft,
  savedInOtherCurrency,
  shownErrors,
  toDraft,
} from "../api/pricing-draft";

interface PricingFormProps {
  eventId: number;
  eventName: string;
  pricing: EventPricingDto;
}

export function PricingForm({ eventId, eventName, pricing }: PricingFormProps) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(pricing));
  /** After a save was tried, every error shows; before, only those of fields the organizer left. */
  const [tried, setTried] = useState(false);
  const [left, setLeft] = useState<ReadonlySet<NumberField>>(new Set());
  /** The server's verdict on the last save, per field, until that field changes. */
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const save = useSaveEventPricing(eventId);
  const rules = draftRules(draft);
  const parsed = parseDraft(draft);
  const currentErrors = "errors" in parsed ? parsed.errors : {};
  const errors: FieldErrors = { ...shownErrors(currentErrors, { everything: tried, left }), ...serverErrors };

  const change = (field: NumberField) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setDraft((current) => ({ ...current, [field]: value }));
    setServerErrors(({ [field]: _answered, ...rest }) => rest);
  };

  const leave = (field: NumberField) => () =>
    setLeft((current) => (current.has(field) ? current : new Set(current).add(field)));

  const numberInput = (field: NumberField, props: { label?: string; min: number; step: number; max?: number }) => (
    <Input
      type="number"
      inputMode="numeric"
      value={draft[field]}
      onChange={change(field)}
      onBlur={leave(field)}
      min={props.min}
      max={props.max}
      step={props.step}
      aria-label={props.label}
      bg="white"
    />
  );
  const priceInput = (field: NumberField, label?: string) =>
    numberInput(field, {
      label,
      min: pricingLimits.minPrice,
      max: pricingLimits.maxPrice,
      step: pricingLimits.priceStep,
    });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if ("errors" in parsed) {
      setTried(true);
      return;
    }
    save.mutate(parsed.pricing, {
      onSuccess: (stored) => {
        setDraft(toDraft(stored));
        // Saved means valid: nothing of an earlier attempt is left on screen.
        setTried(false);
        setLeft(new Set());
        setServerErrors({});
        toaster.create({ type: "success", title: "Configuración de precios guardada", description: eventName });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details) {
          const fromServer: FieldErrors = {};
          for (const detail of error.details) fromServer[detail.path as keyof FieldErrors] ??= detail.message;
          setServerErrors(fromServer);
        }
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Configuración de precios">
      <Stack gap="6">
        <Card.Root as="section" aria-labelledby="base-price-title">
          <Card.Header>
            <Heading as="h2" size="md" id="base-price-title">
              Precio por foto
            </Heading>
          </Card.Header>
          <Card.Body>
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
              <Field.Root required invalid={Boolean(errors.basePrice)}>
                <Field.Label>
                  Precio base por foto <Field.RequiredIndicator />
                </Field.Label>
                {priceInput("basePrice")}
                <Field.HelperText>{pricingMessages.priceHint}</Field.HelperText>
                <Field.ErrorText>{errors.basePrice}</Field.ErrorText>
              </Field.Root>
              <Stack gap="1.5" role="group" aria-labelledby="pricing-currency-label">
                <Text id="pricing-currency-label" textStyle="sm" fontWeight="medium">
                  Moneda
                </Text>
                {/* As tall as the inputs beside it, so the helper lines stay level on wide screens. */}
                <Text minH="10" display="flex" alignItems="center">
                  Pesos colombianos (COP)
                </Text>
                <Text textStyle="xs" color="fg.muted">
                  La pasarela de pagos cobra en pesos.
                </Text>
              </Stack>
              <Field.Root invalid={Boolean(errors.downloadValidityDays)}>
                <Field.Label>Validez de la descarga (días)</Field.Label>
                {numberInput("downloadValidityDays", { min: 1, max: 365, step: 1 })}
                <Field.HelperText>De 1 a 365 días; vacío usa 7.</Field.HelperText>
                <Field.ErrorText>{errors.downloadValidityDays}</Field.ErrorText>
              </Field.Root>
            </SimpleGrid>
            {savedInOtherCurrency(pricing) && (
              <Alert.Root status="warning" mt="4">
                <Alert.Indicator />
                <Alert.Description>
                  Este evento tiene precios guardados en {pricing.currency} (precio base: {pricing.basePrice}{" "}
                  {pricing.currency}), una moneda que la pasarela de pagos no cobra, así que sus fotos no se pueden
                  comprar. Escribe los precios en pesos y guarda.
                </Alert.Description>
              </Alert.Root>
            )}
          </Card.Body>
        </Card.Root>

        <Card.Root as="section" aria-labelledby="tiers-title">
          <Card.Header>
            <HStack justify="space-between" gap="3" wrap="wrap">
              <Box>
                <Heading as="h2" size="md" id="tiers-title">
                  Descuentos por volumen
                </Heading>
                <Text textStyle="sm" color="fg.muted">
                  Al llegar al mínimo de fotos, cada foto de la compra cuesta el precio de ese descuento.
                </Text>
              </Box>
              <Switch.Root
                checked={draft.volumeDiscountEnabled}
                onCheckedChange={(details) =>
                  setDraft((current) => ({ ...current, volumeDiscountEnabled: details.checked }))
                }
                colorPalette="blue"
              >
                <Switch.HiddenInput />
                <Switch.Control>
                  <Switch.Thumb />
                </Switch.Control>
                <Switch.Label>Descuento por volumen</Switch.Label>
              </Switch.Root>
            </HStack>
          </Card.Header>
          <Card.Body>
            {/* A grid rather than a table: on a phone each tier wraps onto two lines and its savings stay in view. */}
            <Stack gap="0" opacity={draft.volumeDiscountEnabled ? 1 : 0.6} separator={<Separator />}>
              {discountTiers.map(({ tier, name }, index) => {
                const photosField = `tier${tier}Photos` as const;
                const priceField = `tier${tier}Price` as const;
                const shown = rules && pricingTiers(rules)[index];
                // Savings only of a discount that is valid as typed: never a negative or absurd figure.
                const valid = !currentErrors.basePrice && !currentErrors[photosField] && !currentErrors[priceField];
                // What the tier charges, shown even while discounts are off so the ladder can be set up first.
                const example =
                  rules && shown && priceForPhotoCount({ ...rules, volumeDiscountEnabled: true }, shown.minPhotos);
                return (
                  <Grid
                    key={tier}
                    data-testid="pricing-tier"
                    templateColumns={{ base: "1fr 1fr", md: "8rem 1fr 1fr 1.4fr" }}
                    columnGap="4"
                    rowGap="2"
                    alignItems="start"
                    py="3"
                  >
                    <Text fontWeight="medium" gridColumn={{ base: "1 / -1", md: "auto" }} pt={{ md: "7" }}>
                      {discountLabel(draft, tier)}
                    </Text>
                    <Field.Root invalid={Boolean(errors[photosField])}>
                      <Field.Label textStyle="xs">Fotos mínimas</Field.Label>
                      {numberInput(photosField, { label: `Fotos mínimas del ${name}`, min: 2, step: 1 })}
                      <Field.ErrorText>{errors[photosField]}</Field.ErrorText>
                    </Field.Root>
                    <Field.Root invalid={Boolean(errors[priceField])}>
                      <Field.Label textStyle="xs">Precio por foto</Field.Label>
                      {priceInput(priceField, `Precio por foto del ${name}`)}
                      <Field.ErrorText>{errors[priceField]}</Field.ErrorText>
                    </Field.Root>
                    <Box gridColumn={{ base: "1 / -1", md: "auto" }} pt={{ md: "6" }} data-testid="tier-savings">
                      {valid && shown && example ? (
                        <Stack gap="0.5">
                          <Text>
                            {shown.savings > 0
                              ? `Ahorro: ${formatPrice(shown.savings)} por foto (${shown.savingsPercent}%)`
                              : "Sin descuento: mismo precio base"}
                          </Text>
                          <Text textStyle="xs" color="fg.muted">
                            {shown.minPhotos} fotos: {formatPrice(example.total)}
                          </Text>
                        </Stack>
                      ) : (
                        <Text color="fg.muted">—</Text>
                      )}
                    </Box>
                  </Grid>
                );
              })}
            </Stack>
          </Card.Body>
        </Card.Root>

        <HStack justify="space-between" gap="3" wrap="wrap">
          <Text textStyle="sm" color="fg.muted">
            {pricing.updatedAt
              ? `Guardado el ${formatDateTime(pricing.updatedAt)}`
              : "Valores predeterminados: este evento aún no tiene precios guardados"}
          </Text>
          <Button type="submit" colorPalette="blue" loading={save.isPending} loadingText="Guardando...">
            Guardar precios
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
