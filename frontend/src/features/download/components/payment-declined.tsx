import { Alert, Button, Card, HStack, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import { type DownloadInfo, salesMessages } from "@dorsal/shared";
import { useNavigate } from "react-router";
import { ThumbnailTile } from "../../../components/ui/thumbnail";
import { ApiError } from "../../../lib/api-fetch";
import { formatCop, formatCount } from "../../../lib/format";
import { storePurchaseIntent } from "../../../lib/purchase-intent";
import { useCartPhotos, useRetryPayment } from "../api/download-info";
import { PaymentSummary } from "./payment-summary";

/**
 * A declined or failed payment: why, and the same photos kept, to pay again in one tap (a new
 * checkout at the same price) or to change on the purchase screen.
 */
export function PaymentDeclined({ info, token }: { info: DownloadInfo; token: string }) {
  const cart = useCartPhotos(info.photoIds);
  const retry = useRetryPayment(token);
  const navigate = useNavigate();
  const count = info.photoIds.length;
  const reason =
    info.statusMessage ??
    (info.status === "error" ? salesMessages.paymentErrorReason : salesMessages.paymentDeclinedReason);

  const changePhotos = () => {
    if (!info.dorsalNumber) return;
    storePurchaseIntent(window.localStorage, {
      eventId: info.eventId,
      dorsalNumber: info.dorsalNumber,
      selectedPhotoIds: info.photoIds,
      userInfo: { name: info.customerName, email: info.customerEmail },
    });
    navigate("/photo-purchase");
  };

  return (
    <Stack gap="5">
      <Alert.Root status="error" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{info.status === "error" ? "El pago no se pudo procesar" : "Pago rechazado"}</Alert.Title>
          <Alert.Description>Motivo: {reason}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Card.Root as="section" aria-labelledby="kept-cart-title">
        <Card.Header>
          <Card.Title id="kept-cart-title">Tu carrito sigue guardado</Card.Title>
          <Text color="fg.muted" textStyle="sm">
            {formatCount(count)} {count === 1 ? "foto" : "fotos"} · {formatCop(info.amount)}. Puedes intentar de nuevo
            con otra tarjeta o medio de pago.
          </Text>
        </Card.Header>
        <Card.Body>
          <Stack gap="4">
            {cart.isPending ? (
              <Skeleton height="24" />
            ) : (
              cart.data &&
              cart.data.length > 0 && (
                <SimpleGrid as="ul" columns={{ base: 3, sm: 4, md: 6 }} gap="2" aria-label="Fotos del carrito">
                  {cart.data.map((photo) => (
                    <ThumbnailTile as="li" key={photo.id} listStyleType="none" url={photo.thumbnailUrl} />
                  ))}
                </SimpleGrid>
              )
            )}
            {retry.error && (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>
                  {retry.error instanceof ApiError && retry.error.status < 500
                    ? retry.error.message
                    : salesMessages.gatewayUnavailable}
                </Alert.Title>
              </Alert.Root>
            )}
            <HStack gap="3" wrap="wrap">
              <Button
                colorPalette="blue"
                size="lg"
                flex={{ base: "1 1 100%", sm: "0 0 auto" }}
                onClick={() => retry.mutate(info.amount)}
                loading={retry.isPending}
                loadingText="Abriendo la pasarela…"
              >
                Reintentar pago
              </Button>
              {info.dorsalNumber && (
                <Button variant="outline" size="lg" flex={{ base: "1 1 100%", sm: "0 0 auto" }} onClick={changePhotos}>
                  Cambiar fotos
                </Button>
              )}
            </HStack>
          </Stack>
        </Card.Body>
      </Card.Root>
      <Card.Root variant="subtle">
        <Card.Body>
          <Text fontWeight="semibold" mb="2">
            Intento de pago
          </Text>
          <PaymentSummary info={info} />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
