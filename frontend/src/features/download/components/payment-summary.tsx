import { Button, DataList, HStack, Input, Stack, Text } from "@chakra-ui/react";
import type { DownloadInfo } from "@dorsal/shared";
import { CheckIcon } from "../../../components/ui/icons";
import { useCopy } from "../../../components/ui/use-copy";
import { formatCop, formatCount, formatDateTime } from "../../../lib/format";

/** Wompi's payment method types, as a buyer knows them; an unknown type is not shown. */
const paymentMethods: Record<string, string> = {
  CARD: "Tarjeta",
  NEQUI: "Nequi",
  PSE: "PSE",
  DAVIPLATA: "Daviplata",
  BANCOLOMBIA_TRANSFER: "Botón Bancolombia",
  BANCOLOMBIA_QR: "QR Bancolombia",
  BANCOLOMBIA_COLLECT: "Corresponsal Bancolombia",
};

/** What the buyer paid (or tried to pay): amount, reference, photos, and when and how once paid. */
export function PaymentSummary({ info }: { info: DownloadInfo }) {
  const method = info.paymentMethod ? paymentMethods[info.paymentMethod] : undefined;
  const count = info.photoIds.length;
  return (
    <DataList.Root orientation="horizontal" size="md" gap="2" data-testid="payment-summary">
      <DataList.Item>
        <DataList.ItemLabel>{info.status === "paid" ? "Valor pagado" : "Valor"}</DataList.ItemLabel>
        <DataList.ItemValue fontWeight="semibold">{formatCop(info.amount)}</DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Referencia</DataList.ItemLabel>
        <DataList.ItemValue fontFamily="mono" wordBreak="break-all">
          {info.reference}
        </DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Fotos</DataList.ItemLabel>
        <DataList.ItemValue>
          {formatCount(count)} {count === 1 ? "foto" : "fotos"} · {info.eventName}
          {info.dorsalNumber ? ` · dorsal ${info.dorsalNumber}` : ""}
        </DataList.ItemValue>
      </DataList.Item>
      {info.paidAt && (
        <DataList.Item>
          <DataList.ItemLabel>Fecha</DataList.ItemLabel>
          <DataList.ItemValue>{formatDateTime(info.paidAt)}</DataList.ItemValue>
        </DataList.Item>
      )}
      {method && (
        <DataList.Item>
          <DataList.ItemLabel>Medio de pago</DataList.ItemLabel>
          <DataList.ItemValue>{method}</DataList.ItemValue>
        </DataList.Item>
      )}
    </DataList.Root>
  );
}

/**
 * The link is the way back to the photos (there is no account), so it is shown in full, with a copy
 * button; the paid sale's email carries a second one. The field stays selectable where the
 * clipboard is not available (plain HTTP).
 */
export function CopyDownloadLink({ link, email }: { link: string; email: string }) {
  const { copied, copy } = useCopy(link);

  return (
    <Stack gap="2" as="section" aria-labelledby="download-link-title">
      <Text fontWeight="semibold" id="download-link-title">
        Guarda tu enlace de descarga
      </Text>
      <Text textStyle="sm" color="fg.muted">
        Con él vuelves a tus fotos: cópialo y guárdalo. Al aprobarse el pago también te enviamos un enlace a {email}.
      </Text>
      <HStack gap="2" align="stretch" flexDirection={{ base: "column", sm: "row" }}>
        <Input
          readOnly
          value={link}
          aria-label="Enlace de descarga"
          onFocus={(event) => event.currentTarget.select()}
          fontFamily="mono"
          textStyle="sm"
          bg="white"
          // Only in the row: as a column's flex item, a basis of 0 would flatten the field.
          flex={{ sm: "1" }}
          minWidth="0"
        />
        <Button onClick={() => void copy()} colorPalette={copied ? "green" : "blue"} variant="outline" flexShrink={0}>
          {copied ? (
            <>
              <CheckIcon /> Enlace copiado
            </>
          ) : (
            "Copiar enlace"
          )}
        </Button>
      </HStack>
    </Stack>
  );
}
