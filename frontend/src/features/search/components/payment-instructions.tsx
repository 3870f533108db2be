import { Box, Button, Collapsible, Heading, Link, List, Skeleton, Stack, Text } from "@chakra-ui/react";
import { whatsappLink } from "@dorsal/shared";
import { useSupportPhone } from "../api/public-settings";

interface PaymentInstructionsProps {
  dorsalNumber: string;
  eventName: string;
  /** Closed behind a toggle, for screens where buying through the gateway comes first. */
  collapsible?: boolean;
}

function SupportContact({ dorsalNumber, eventName }: Omit<PaymentInstructionsProps, "collapsible">) {
  const supportPhone = useSupportPhone();
  if (supportPhone.isPending) return <Skeleton height="5" width="48" />;
  // A failed read reads as "not configured": the organizer is the fallback either way.
  if (!supportPhone.data) {
    return <Text fontWeight="medium">Pide el número de soporte al organizador.</Text>;
  }
  const message = `Hola, envío el comprobante de pago de mis fotos. Evento: ${eventName}. Dorsal: ${dorsalNumber}.`;
  return (
    <Text>
      Soporte: <strong>{supportPhone.data}</strong> ·{" "}
      <Link
        href={whatsappLink(supportPhone.data, message)}
        target="_blank"
        rel="noopener noreferrer"
        colorPalette="green"
        variant="underline"
      >
        Escribir por WhatsApp
      </Link>
    </Text>
  );
}

function Steps({ dorsalNumber, eventName }: Omit<PaymentInstructionsProps, "collapsible">) {
  return (
    <Stack gap="3">
      <List.Root as="ol" ps="5" gap="1.5">
        <List.Item>Paga tus fotos por transferencia bancaria o billetera móvil (Nequi, Daviplata).</List.Item>
        <List.Item>Guarda el comprobante de pago (una captura de pantalla sirve).</List.Item>
        <List.Item>
          Envía el comprobante por WhatsApp al número de soporte con tu dorsal <strong>{dorsalNumber}</strong> y el
          evento <strong>{eventName}</strong>.
        </List.Item>
        <List.Item>Cuando el organizador confirme tu pago, te responderá con un código de descarga.</List.Item>
        <List.Item>
          Busca de nuevo tu dorsal, elige «Tengo un código de descarga» e ingrésalo: descarga tus fotos sin marca de
          agua, todas en un ZIP o una por una.
        </List.Item>
      </List.Root>
      <SupportContact dorsalNumber={dorsalNumber} eventName={eventName} />
    </Stack>
  );
}

/** Spec §2.6: paying outside the payment gateway and receiving a download code, in five steps. */
export function PaymentInstructions({ dorsalNumber, eventName, collapsible = false }: PaymentInstructionsProps) {
  if (collapsible) {
    return (
      <Collapsible.Root borderWidth="1px" borderRadius="lg" bg="white" p="4">
        <Collapsible.Trigger asChild>
          <Button
            variant="ghost"
            size="sm"
            colorPalette="blue"
            width="full"
            height="auto"
            py="2"
            whiteSpace="normal"
            textAlign="start"
            justifyContent="space-between"
          >
            ¿Pagas por transferencia o billetera móvil?
            <Collapsible.Indicator transition="transform 0.2s" _open={{ transform: "rotate(180deg)" }}>
              ▾
            </Collapsible.Indicator>
          </Button>
        </Collapsible.Trigger>
        <Collapsible.Content pt="3">
          <Steps dorsalNumber={dorsalNumber} eventName={eventName} />
        </Collapsible.Content>
      </Collapsible.Root>
    );
  }
  return (
    <Box as="section" aria-labelledby="payment-instructions-title" borderWidth="1px" borderRadius="lg" bg="white" p="4">
      <Heading as="h2" size="md" id="payment-instructions-title" mb="3">
        Pagar por transferencia o billetera móvil
      </Heading>
      <Steps dorsalNumber={dorsalNumber} eventName={eventName} />
    </Box>
  );
}
