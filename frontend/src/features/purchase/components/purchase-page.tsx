import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Field,
  Heading,
  HStack,
  Input,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from "@chakra-ui/react";
import {
  type CartPriceRule,
  customerEmail,
  customerName,
  formatPrice,
  type PhotoDto,
  salesMessages,
} from "@dorsal/shared";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { SearchIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { ApiError } from "../../../lib/api-fetch";
import { formatCount } from "../../../lib/format";
import { consumePurchaseIntent, type PurchaseIntent } from "../../../lib/purchase-intent";
import { useSearchPhotos } from "../../../lib/queries/search-photos";
import { useCartQuote, useCreateSale, useOtherCartPhotos } from "../api/sales";

const ruleLabels: Record<CartPriceRule, string> = {
  eventPricing: "Precio del evento por cantidad de fotos",
  bundleAllOfBib: "Paquete: todas las fotos de tu dorsal",
  bundle5: "Paquete de 5 o más fotos",
  bundle3: "Paquete de 3 o 4 fotos",
  perPhoto: "Precio por foto",
};

function PhotoChoice({ photo, inCart, onToggle }: { photo: PhotoDto; inCart: boolean; onToggle: () => void }) {
  return (
    <Box
      as="li"
      listStyleType="none"
      borderWidth="2px"
      borderColor={inCart ? "blue.500" : "transparent"}
      borderRadius="md"
    >
      <Checkbox.Root checked={inCart} onCheckedChange={onToggle} display="block" cursor="pointer">
        <Checkbox.HiddenInput
          aria-label={`${inCart ? "Quitar del carrito" : "Agregar al carrito"}: ${photo.originalFilename}`}
        />
        <Box position="relative" aspectRatio={1} bg="gray.100" borderRadius="md" overflow="hidden">
          <ThumbnailImage url={photo.thumbnailUrl} />
          <Box position="absolute" top="2" left="2" bg="white" borderRadius="sm" lineHeight="0">
            <Checkbox.Control />
          </Box>
        </Box>
      </Checkbox.Root>
    </Box>
  );
}

function firstError(schema: typeof customerName | typeof customerEmail, value: string): string | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

function CustomerForm({
  intent,
  cart,
  total,
  quotePending,
}: {
  intent: PurchaseIntent & { eventId: number };
  cart: string[];
  total: number | null;
  quotePending: boolean;
}) {
  const [name, setName] = useState(intent.userInfo?.name ?? "");
  const [email, setEmail] = useState(intent.userInfo?.email ?? "");
  const [errors, setErrors] = useState<{ name?: string | null; email?: string | null }>({});
  const sale = useCreateSale();
  // Spec §5 disables the button; the buyer is told why next to it, not left with a grey button.
  const waitingFor =
    cart.length === 0
      ? "Elige al menos una foto"
      : !name.trim() || !email.trim()
        ? "Escribe tu nombre y tu correo"
        : quotePending || total === null
          ? "Calculando el precio…"
          : null;
  const disabled = waitingFor !== null || sale.isPending;
  const reasonId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = { name: firstError(customerName, name), email: firstError(customerEmail, email) };
    setErrors(found);
    if (found.name || found.email || total === null) return;
    sale.mutate(
      {
        eventId: intent.eventId,
        ...(intent.dorsalNumber ? { dorsalNumber: intent.dorsalNumber } : {}),
        photoIds: cart,
        customerName: name.trim(),
        customerEmail: email.trim(),
        amount: total,
      },
      { onSuccess: (response) => window.location.assign(response.paymentUrl) },
    );
  };

  const failure = sale.error;
  return (
    <form onSubmit={submit} noValidate aria-label="Datos del comprador">
      <Stack gap="4">
        <Field.Root invalid={Boolean(errors.name)} required>
          <Field.Label>Nombre completo</Field.Label>
          <Input
            value={name}
            autoComplete="name"
            onChange={(event) => {
              setName(event.currentTarget.value);
              setErrors((current) => ({ ...current, name: null }));
            }}
            bg="white"
          />
          <Field.ErrorText>{errors.name}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(errors.email)} required>
          <Field.Label>Correo electrónico</Field.Label>
          <Input
            type="email"
            value={email}
            autoComplete="email"
            inputMode="email"
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setErrors((current) => ({ ...current, email: null }));
            }}
            bg="white"
          />
          <Field.ErrorText>{errors.email}</Field.ErrorText>
        </Field.Root>
        {failure && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>
                {failure instanceof ApiError && failure.status === 409
                  ? failure.message
                  : salesMessages.gatewayUnavailable}
              </Alert.Title>
              {!(failure instanceof ApiError && failure.status === 409) && (
                <Alert.Description>{failure.message}</Alert.Description>
              )}
            </Alert.Content>
          </Alert.Root>
        )}
        <Button
          type="submit"
          colorPalette="blue"
          size="lg"
          disabled={disabled}
          loading={sale.isPending}
          aria-describedby={waitingFor ? reasonId : undefined}
        >
          Pagar {total !== null ? formatPrice(total) : ""}
        </Button>
        {waitingFor && (
          <Text id={reasonId} textStyle="sm" color="fg.muted" role="status">
            {waitingFor}
          </Text>
        )}
        <Text textStyle="xs" color="fg.muted">
          Pagarás en la pasarela segura de Wompi. Al aprobarse el pago volverás aquí para descargar tus fotos originales
          sin marca de agua.
        </Text>
      </Stack>
    </form>
  );
}

function Purchase({ intent }: { intent: PurchaseIntent & { eventId: number; dorsalNumber: string } }) {
  const photos = useSearchPhotos({ eventId: intent.eventId, dorsalNumber: intent.dorsalNumber });
  const [cart, setCart] = useState<string[]>(intent.selectedPhotoIds);
  const quoteRequest =
    cart.length > 0 ? { eventId: intent.eventId, dorsalNumber: intent.dorsalNumber, photoIds: cart } : null;
  const quote = useCartQuote(quoteRequest);
  const bibPhotoIds = new Set(photos.data?.photos.map((photo) => photo.id));
  const others = useOtherCartPhotos(photos.data ? intent.selectedPhotoIds.filter((id) => !bibPhotoIds.has(id)) : []);
  const toggle = (id: string) =>
    setCart((current) => (current.includes(id) ? current.filter((other) => other !== id) : [...current, id]));

  if (photos.isPending || others.isLoading) return <Skeleton height="64" />;
  if (photos.isError) {
    return <LoadError title="Error cargando fotos" query={photos} />;
  }
  const all = [...photos.data.photos, ...(others.data ?? [])];
  if (all.length === 0) {
    return (
      <EmptyState
        icon={<SearchIcon />}
        title="Sin resultados"
        description="No se encontraron fotos para este dorsal"
        action={
          <Button asChild variant="outline">
            <RouterLink to="/search">Buscar otro dorsal</RouterLink>
          </Button>
        }
      />
    );
  }
  const inCart = new Set(cart);
  const chosen = all.filter((photo) => inCart.has(photo.id));
  const notChosen = all.filter((photo) => !inCart.has(photo.id));
  const priced = quote.data && cart.length > 0 ? quote.data : null;

  return (
    <SimpleGrid columns={{ base: 1, lg: 3 }} gap="6" alignItems="start">
      <Stack gap="6" gridColumn={{ lg: "span 2" }}>
        <Stack as="section" gap="3" aria-labelledby="chosen-title">
          <Heading as="h2" size="md" id="chosen-title">
            Fotos elegidas ({formatCount(chosen.length)})
          </Heading>
          {chosen.length === 0 ? (
            <Text color="fg.muted">Elige abajo las fotos que quieres comprar.</Text>
          ) : (
            <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 4 }} gap="3">
              {chosen.map((photo) => (
                <PhotoChoice key={photo.id} photo={photo} inCart onToggle={() => toggle(photo.id)} />
              ))}
            </SimpleGrid>
          )}
        </Stack>
        {notChosen.length > 0 && (
          <Stack as="section" gap="3" aria-labelledby="others-title">
            <HStack justify="space-between" wrap="wrap">
              <Heading as="h2" size="md" id="others-title">
                Otras fotos del dorsal {intent.dorsalNumber}
              </Heading>
              <Button size="sm" variant="outline" onClick={() => setCart(all.map((photo) => photo.id))}>
                Agregar todas
              </Button>
            </HStack>
            <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 4 }} gap="3">
              {notChosen.map((photo) => (
                <PhotoChoice key={photo.id} photo={photo} inCart={false} onToggle={() => toggle(photo.id)} />
              ))}
            </SimpleGrid>
          </Stack>
        )}
      </Stack>
      <Card.Root as="aside" aria-label="Carrito" position={{ lg: "sticky" }} top={{ lg: "4" }}>
        <Card.Header>
          <Card.Title>Carrito</Card.Title>
        </Card.Header>
        <Card.Body>
          <Stack gap="4">
            {cart.length === 0 ? (
              <Text color="fg.muted">Tu carrito está vacío.</Text>
            ) : quote.isError ? (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{quote.error.message}</Alert.Title>
              </Alert.Root>
            ) : !priced ? (
              <Skeleton height="16" />
            ) : (
              <Stack gap="1" aria-live="polite">
                <HStack justify="space-between">
                  <Text>
                    {formatCount(priced.count)} {priced.count === 1 ? "foto" : "fotos"}
                  </Text>
                  <Text fontWeight="bold" fontSize="xl" data-testid="cart-total">
                    {formatPrice(priced.total)}
                  </Text>
                </HStack>
                <Text textStyle="sm" color="fg.muted">
                  {ruleLabels[priced.rule]} · {formatPrice(priced.unitPrice)} por foto
                </Text>
                {priced.listTotal > priced.total && (
                  <Badge colorPalette="green" alignSelf="start">
                    Ahorras {formatPrice(priced.listTotal - priced.total)}
                  </Badge>
                )}
              </Stack>
            )}
            <CustomerForm intent={intent} cart={cart} total={priced?.total ?? null} quotePending={quote.isFetching} />
          </Stack>
        </Card.Body>
      </Card.Root>
    </SimpleGrid>
  );
}

/** Spec §2.6 purchase screen: the bib's photos, a cart priced by the server, the buyer's details, checkout. */
export function PurchasePage() {
  const [params] = useSearchParams();
  // Consumed once per visit: the stored keys are removed as they are read.
  const intent = useMemo(() => consumePurchaseIntent(params, window.localStorage), [params]);

  return (
    <Box>
      {intent.userInfo && (
        <HStack justify="flex-end" mb="2">
          <Button asChild variant="ghost" size="sm">
            <RouterLink to="/">Volver al Portal</RouterLink>
          </Button>
        </HStack>
      )}
      <PageHeader
        title="Comprar fotos"
        subtitle={intent.dorsalNumber ? `Dorsal ${intent.dorsalNumber}` : "Elige tus fotos y paga en línea"}
      />
      {intent.eventId !== null && intent.dorsalNumber !== null ? (
        <Purchase intent={{ ...intent, eventId: intent.eventId, dorsalNumber: intent.dorsalNumber }} />
      ) : (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{salesMessages.noValidDorsal}</Alert.Title>
            <Alert.Description>
              <RouterLink to="/search">Buscar mis fotos</RouterLink>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </Box>
  );
}
