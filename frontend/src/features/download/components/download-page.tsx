import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  chakra,
  HStack,
  Link,
  List,
  Progress,
  SimpleGrid,
  Skeleton,
  Spinner,
  Stack,
  Text,
} from "@chakra-ui/react";
import { type DownloadInfo, type DownloadPhoto, salesMessages } from "@dorsal/shared";
import { salesApi } from "@dorsal/shared/contract/sales";
import { useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router";
import { PageHeader } from "../../../components/ui/page-header";
import { PhotoPreviewDialog } from "../../../components/ui/photo-preview-dialog";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { allowanceText, nothingLeft, remainingPerPhoto } from "../../../lib/allowance";
import { ApiError, apiCall } from "../../../lib/api-fetch";
import { downloadFile } from "../../../lib/download-file";
import { formatCount, formatDateTime } from "../../../lib/format";
import { useZipDownload } from "../../../lib/zip-download";
import { useDownloadInfo, useRefreshDownloadInfo } from "../api/download-info";
import { PaymentDeclined } from "./payment-declined";
import { CopyDownloadLink, PaymentSummary } from "./payment-summary";

type PhotoState =
  | { phase: "idle" }
  | { phase: "downloading"; percent: number }
  | { phase: "done" }
  | { phase: "failed" };

function AccessError({ title, message }: { title: string; message: string }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{message}</Alert.Description>
        <Box mt="3">
          <Button asChild size="sm" variant="outline">
            <RouterLink to="/search">Buscar mis fotos</RouterLink>
          </Button>
        </Box>
      </Alert.Content>
    </Alert.Root>
  );
}

/** 'Descargar todas (ZIP)': one file for every photo with downloads left, then what happened. */
function ZipDownload({ token, photoCount, disabled }: { token: string; photoCount: number; disabled: boolean }) {
  const refresh = useRefreshDownloadInfo(token);
  const zip = useZipDownload(() => apiCall(salesApi.downloadZip, { params: { token } }), refresh);
  return (
    <Stack gap="3">
      <Button
        colorPalette="blue"
        size="lg"
        width={{ base: "full", sm: "auto" }}
        alignSelf={{ sm: "flex-start" }}
        onClick={() => zip.mutate()}
        disabled={disabled || zip.isPending}
        loading={zip.isPending}
        loadingText="Preparando tu ZIP…"
      >
        Descargar todas (ZIP)
      </Button>
      <Box aria-live="polite">
        {zip.isPending && (
          <Text textStyle="sm" color="fg.muted">
            Estamos reuniendo tus {formatCount(photoCount)} fotos originales en un solo archivo.
          </Text>
        )}
        {zip.isSuccess && (
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>
                Tu ZIP con {formatCount(zip.data.photoCount)} {zip.data.photoCount === 1 ? "foto" : "fotos"} se está
                descargando.
              </Alert.Title>
              <Alert.Description>
                Si no empieza,{" "}
                <Link href={zip.data.url} download={zip.data.filename} variant="underline">
                  descárgalo aquí
                </Link>{" "}
                (el enlace vale 10 minutos). En el iPhone, ábrelo desde la app Archivos para ver tus fotos.
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {zip.isError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{zip.error instanceof ApiError ? zip.error.message : salesMessages.zipFailed}</Alert.Title>
          </Alert.Root>
        )}
      </Box>
    </Stack>
  );
}

function PhotoCard({
  photo,
  state,
  onPreview,
  onDownload,
}: {
  photo: DownloadPhoto;
  state: PhotoState;
  onPreview: () => void;
  onDownload: () => void;
}) {
  return (
    <Card.Root as="li" listStyleType="none" overflow="hidden">
      <chakra.button
        type="button"
        onClick={onPreview}
        aria-label={`Ver foto ${photo.originalFilename}`}
        aspectRatio={4 / 3}
        bg="gray.100"
        display="flex"
        alignItems="center"
        justifyContent="center"
        cursor="pointer"
      >
        <ThumbnailImage url={photo.thumbnailUrl} />
      </chakra.button>
      <Card.Body gap="2" p="3">
        <Text textStyle="sm" truncate>
          {photo.originalFilename}
        </Text>
        <Text textStyle="xs" color="fg.muted">
          {formatCount(photo.remainingDownloads)}{" "}
          {photo.remainingDownloads === 1 ? "descarga restante" : "descargas restantes"} de esta foto
        </Text>
        {state.phase === "downloading" && (
          <Progress.Root value={state.percent} size="sm" aria-label={`Descargando ${photo.originalFilename}`}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        )}
        {state.phase === "failed" && (
          <Text textStyle="xs" color="red.600" role="alert">
            {salesMessages.photoDownloadFailed}
          </Text>
        )}
        <Button
          size="sm"
          variant={state.phase === "done" ? "subtle" : "outline"}
          onClick={onDownload}
          disabled={state.phase === "downloading" || photo.remainingDownloads <= 0}
          aria-label={`Descargar ${photo.originalFilename}`}
        >
          {state.phase === "done"
            ? "Descargada"
            : state.phase === "downloading"
              ? `Descargando ${state.percent}%`
              : "Descargar"}
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

/** A paid sale: the confirmation (amount, reference, the link to keep), then the downloads. */
function PaidDownloads({ info, token }: { info: DownloadInfo; token: string }) {
  const refresh = useRefreshDownloadInfo(token);
  const [states, setStates] = useState<Record<string, PhotoState>>({});
  const [preview, setPreview] = useState<DownloadPhoto | null>(null);
  const link = `${window.location.origin}/download?${new URLSearchParams({ token })}`;
  const spent = nothingLeft(info.photos);
  const withDownloadsLeft = info.photos.filter((photo) => photo.remainingDownloads > 0).length;

  const setState = (photoId: string, state: PhotoState) => setStates((current) => ({ ...current, [photoId]: state }));
  const download = async (photo: DownloadPhoto) => {
    setState(photo.id, { phase: "downloading", percent: 0 });
    try {
      await downloadFile(photo.downloadUrl, photo.originalFilename, (percent) =>
        setState(photo.id, { phase: "downloading", percent }),
      );
      setState(photo.id, { phase: "done" });
    } catch {
      setState(photo.id, { phase: "failed" });
    }
    // The server counted the download (or refused it): show what it says is left.
    await refresh();
  };

  return (
    <Stack gap="5">
      <Card.Root as="section" aria-label="Confirmación de pago" data-testid="payment-confirmation">
        <Card.Body gap="4">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Pago aprobado</Alert.Title>
              <Alert.Description>
                Gracias, {info.customerName}. Ya puedes descargar tus fotos originales.
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <PaymentSummary info={info} />
          <CopyDownloadLink link={link} email={info.customerEmail} />
        </Card.Body>
      </Card.Root>

      <Card.Root as="section" aria-labelledby="downloads-title">
        <Card.Body gap="3">
          <Text fontWeight="semibold" fontSize="lg" id="downloads-title">
            Tus fotos
          </Text>
          <HStack wrap="wrap" gap="2">
            <Badge colorPalette="blue">
              {formatCount(info.photos.length)} {info.photos.length === 1 ? "foto" : "fotos"}
            </Badge>
            {info.expiresAt && <Badge colorPalette="orange">Disponible hasta {formatDateTime(info.expiresAt)}</Badge>}
            <Badge colorPalette={spent ? "red" : "green"} data-testid="remaining-downloads">
              {remainingPerPhoto(info.photos, info.maxDownloads)}
            </Badge>
          </HStack>
          <Text textStyle="sm" color="fg.muted">
            {allowanceText(info.maxDownloads)}
          </Text>
          <ZipDownload token={token} photoCount={withDownloadsLeft} disabled={spent} />
        </Card.Body>
      </Card.Root>

      {spent && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Title>{salesMessages.downloadLimit}</Alert.Title>
        </Alert.Root>
      )}
      <SimpleGrid as="ul" columns={{ base: 1, sm: 2, md: 3 }} gap="4" aria-label="Fotos compradas">
        {info.photos.map((photo) => (
          <PhotoCard
            key={photo.id}
            photo={photo}
            state={states[photo.id] ?? { phase: "idle" }}
            onPreview={() => setPreview(photo)}
            onDownload={() => void download(photo)}
          />
        ))}
      </SimpleGrid>
      <Card.Root as="section" aria-labelledby="download-help" variant="subtle">
        <Card.Body>
          <Text fontWeight="semibold" id="download-help" mb="2">
            Ayuda
          </Text>
          <List.Root gap="1" textStyle="sm" color="fg.muted" ps="4">
            <List.Item>
              Guarda el enlace de esta página o el del correo que te enviamos al aprobarse el pago: con ellos vuelves a
              tus fotos.
            </List.Item>
            <List.Item>
              «Descargar todas (ZIP)» guarda un solo archivo con todas tus fotos; en el iPhone queda en la app Archivos,
              donde al tocarlo se abre la carpeta con las fotos.
            </List.Item>
            <List.Item>
              Una foto descargada sola queda en la carpeta de descargas; desde allí puedes guardarla en la galería.
            </List.Item>
            <List.Item>¿Problemas con tu descarga? Contacta al organizador del evento.</List.Item>
          </List.Root>
        </Card.Body>
      </Card.Root>
      <PhotoPreviewDialog
        photo={
          preview && { originalFilename: preview.originalFilename, sources: [preview.webUrl, preview.thumbnailUrl] }
        }
        onClose={() => setPreview(null)}
      />
    </Stack>
  );
}

function PaymentPending({ info }: { info: DownloadInfo }) {
  return (
    <Stack gap="5">
      <Alert.Root status="info" aria-live="polite">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Pago pendiente</Alert.Title>
          <Alert.Description>
            <Stack gap="2">
              <Text>{salesMessages.paymentPending}</Text>
              <Text>Con PSE o en efectivo la confirmación puede tardar unos minutos.</Text>
              <HStack gap="2">
                <Spinner size="sm" />
                <Text>Verificando el pago…</Text>
              </HStack>
            </Stack>
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Card.Root>
        <Card.Body>
          <PaymentSummary info={info} />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

const headers: Record<DownloadInfo["status"], { title: string; subtitle: string }> = {
  paid: { title: "Descarga tus fotos", subtitle: "Fotos originales en alta resolución, sin marca de agua" },
  pending: { title: "Confirmando tu pago", subtitle: "Tus fotos estarán aquí en cuanto se apruebe" },
  declined: { title: "Tu pago no se completó", subtitle: "No perdiste tus fotos: siguen en tu carrito" },
  error: { title: "Tu pago no se completó", subtitle: "No perdiste tus fotos: siguen en tu carrito" },
  voided: { title: "Pago anulado", subtitle: "Esta compra ya no permite descargas" },
};

/** The page for each state of the sale behind the link; the header says what the state is. */
function Sale({ token, transactionId }: { token: string; transactionId: string | null }) {
  const info = useDownloadInfo(token, transactionId);

  if (info.isPending) {
    return (
      <>
        <PageHeader title="Tu compra" />
        <Skeleton height="64" />
      </>
    );
  }
  if (info.isError) {
    const error = info.error;
    return (
      <>
        <PageHeader title="Tu compra" />
        {error instanceof ApiError && error.status === 410 ? (
          <AccessError title="Enlace expirado" message={salesMessages.downloadExpired} />
        ) : (
          <AccessError
            title="No se pudo acceder a la descarga"
            message={error instanceof ApiError ? error.message : salesMessages.downloadInfoFailed}
          />
        )}
      </>
    );
  }
  const data = info.data;
  const header = headers[data.status];
  return (
    <>
      <PageHeader title={header.title} subtitle={header.subtitle} />
      {data.status === "paid" ? (
        <PaidDownloads info={data} token={token} />
      ) : data.status === "pending" ? (
        <PaymentPending info={data} />
      ) : data.status === "voided" ? (
        <AccessError title="Pago anulado" message={salesMessages.paymentDeclined} />
      ) : (
        <PaymentDeclined info={data} token={token} />
      )}
    </>
  );
}

/** Spec §2.6 download page: the payment's outcome, then the paid originals behind a time-limited link. */
export function DownloadPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  return (
    <Box>
      {token ? (
        <Sale token={token} transactionId={params.get("id")} />
      ) : (
        <>
          <PageHeader title="Tu compra" />
          <AccessError title="Enlace de descarga no válido" message={salesMessages.tokenRequired} />
        </>
      )}
    </Box>
  );
}
