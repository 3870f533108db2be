import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  chakra,
  Heading,
  HStack,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from "@chakra-ui/react";
import { type CartPrice, formatPrice, type PhotoDto, type SearchMode } from "@dorsal/shared";
import { photosPublicApi } from "@dorsal/shared/contract/photos-public";
import type { FaceSearchPhoto } from "@dorsal/shared/face-search";
import { lazy, Suspense, useId, useState } from "react";
import { useNavigate } from "react-router";
import { LazyPhotoPreviewDialog } from "../../../components/ui/lazy-photo-preview-dialog";
import { LoadError } from "../../../components/ui/load-error";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { apiCall } from "../../../lib/api-fetch";
import { downloadFile } from "../../../lib/download-file";
import { formatCount } from "../../../lib/format";
import { storePurchaseIntent } from "../../../lib/purchase-intent";
import type { PhotoSearch } from "../../../lib/queries/search-photos";
import { useSession } from "../../../lib/session";
import { useBibPhotos } from "../api/browse";
import {
  type BibPricing,
  chargesPerPhoto,
  type PriceOf,
  type PriceStep,
  priceSteps,
  useBibPricing,
} from "../api/prices";
import { NoPhotos } from "./no-photos";
import { ParticipantName } from "./participant-name";
import { PaymentInstructions } from "./payment-instructions";

/**
 * Opened from a button under the results, so it loads with them, not with /search's first paint
 * (issue 20): its code, the zip download and the code contract.
 */
const CodeDialog = lazy(() => import("./code-dialog").then((module) => ({ default: module.CodeDialog })));

const photoCount = (count: number) => `${formatCount(count)} ${count === 1 ? "foto" : "fotos"}`;

function PhotoTile({
  photo,
  chosen,
  onOpen,
  onToggle,
}: {
  photo: Pick<PhotoDto, "originalFilename" | "thumbnailUrl">;
  /** Null when the photo cannot be bought here (the athlete downloads it free). */
  chosen: boolean | null;
  onOpen: () => void;
  onToggle: () => void;
}) {
  return (
    <Box position="relative">
      <chakra.button
        type="button"
        onClick={onOpen}
        aria-label={`Ver foto ${photo.originalFilename}`}
        width="full"
        aspectRatio={1}
        borderRadius="md"
        overflow="hidden"
        bg="gray.100"
        display="flex"
        alignItems="center"
        justifyContent="center"
        cursor="pointer"
        outline={chosen ? "3px solid" : undefined}
        outlineColor="blue.500"
        outlineOffset="-3px"
        _hover={{ opacity: 0.9 }}
        focusRingColor="blue.500"
      >
        <ThumbnailImage url={photo.thumbnailUrl} />
      </chakra.button>
      {chosen !== null && (
        <Checkbox.Root
          colorPalette="blue"
          checked={chosen}
          onCheckedChange={onToggle}
          position="absolute"
          top="1.5"
          left="1.5"
          bg="white"
          borderRadius="sm"
          p="1"
          cursor="pointer"
        >
          <Checkbox.HiddenInput aria-label={`Elegir ${photo.originalFilename}`} />
          <Checkbox.Control />
        </Checkbox.Root>
      )}
    </Box>
  );
}

/**
 * A signed-in athlete's free download on an event with 'Acceso deportistas' (the server sends those
 * photos clean): the API checks the athlete and answers a short-lived URL of the original.
 */
function AthleteDownload({ photo }: { photo: PhotoDto }) {
  const [state, setState] = useState<"idle" | "busy" | "done" | "failed">("idle");
  const run = async () => {
    setState("busy");
    try {
      const { url } = await apiCall(photosPublicApi.athleteDownload, { params: { photoId: photo.id } });
      await downloadFile(url, photo.originalFilename, () => {});
      setState("done");
    } catch {
      setState("failed");
    }
  };
  return (
    <Stack gap="1" mt="1">
      <Button size="xs" variant="outline" onClick={() => void run()} loading={state === "busy"}>
        {state === "done" ? "Descargada" : "Descargar gratis"}
      </Button>
      {state === "failed" && (
        <Text textStyle="xs" color="red.600" role="alert">
          Error al descargar la foto. Por favor intenta de nuevo.
        </Text>
      )}
    </Stack>
  );
}

const countRange = ({ from, to }: PriceStep) =>
  from === to ? photoCount(from) : to === from + 1 ? `${from} o ${to} fotos` : `${from} a ${to} fotos`;

function stepText(step: PriceStep): string {
  if (step.from === 1) return `Precio por foto: ${formatPrice(step.price.unitPrice)}`;
  return chargesPerPhoto(step.price)
    ? `${countRange(step)}: ${formatPrice(step.price.unitPrice)} c/u`
    : `${countRange(step)}: ${formatPrice(step.price.total)} en total`;
}

/** Spec §9 before the cart: the per-photo price, the tiers or bundles this bib can reach, all its photos. */
function PriceList({
  pricing,
  totalFound,
  onChooseAll,
  choosingAll,
  allChosen,
}: {
  pricing: BibPricing;
  totalFound: number;
  onChooseAll: () => void;
  choosingAll: boolean;
  allChosen: boolean;
}) {
  if (pricing.status === "pending") return <Skeleton height="20" />;
  if (pricing.status === "unavailable") {
    return (
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Title>{pricing.message}</Alert.Title>
      </Alert.Root>
    );
  }
  const all = totalFound > 1 ? pricing.priceOf(totalFound) : null;
  return (
    <Stack as="section" aria-label="Precios" gap="3" borderWidth="1px" borderRadius="lg" bg="white" p="4">
      <List.Root gap="1" listStyleType="none" textStyle="sm">
        {priceSteps(pricing.priceOf, totalFound).map((step) => (
          <List.Item key={step.from}>{stepText(step)}</List.Item>
        ))}
      </List.Root>
      {all && (
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Text fontWeight="semibold" minW="0">
            Todas las {formatCount(totalFound)} fotos: {formatPrice(all.total)}
            {all.listTotal > all.total && (
              <>
                {" "}
                <chakra.span whiteSpace="nowrap" color="green.700">
                  (ahorras {formatPrice(all.listTotal - all.total)})
                </chakra.span>
              </>
            )}
          </Text>
          <Button
            size="sm"
            variant="outline"
            colorPalette="blue"
            onClick={onChooseAll}
            loading={choosingAll}
            disabled={allChosen}
          >
            {allChosen ? "Todas en el carrito" : "Elegir todas"}
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

/** The cart as the search builds it, kept in view at the bottom of the screen, with why buying waits. */
function SelectionBar({
  count,
  price,
  onBuy,
  onClear,
}: {
  count: number;
  price: CartPrice | null;
  onBuy: () => void;
  onClear: () => void;
}) {
  const reasonId = useId();
  return (
    <Box
      as="section"
      aria-label="Carrito"
      position="sticky"
      bottom="0"
      zIndex="sticky"
      bg="white"
      borderWidth="1px"
      borderRadius="lg"
      shadow="md"
      p="3"
    >
      <HStack justify="space-between" gap="3" wrap="wrap">
        {count === 0 ? (
          <Text id={reasonId} color="fg.muted" textStyle="sm">
            Elige al menos una foto
          </Text>
        ) : (
          <Stack gap="0.5" minW="0">
            <Text textStyle="sm">{photoCount(count)} en el carrito</Text>
            <HStack gap="2" wrap="wrap" data-testid="selection-total" aria-live="polite">
              {price && <Text fontWeight="bold">{formatPrice(price.total)}</Text>}
              {price && price.listTotal > price.total && (
                <Badge colorPalette="green">Ahorras {formatPrice(price.listTotal - price.total)}</Badge>
              )}
            </HStack>
          </Stack>
        )}
        <HStack gap="2" ms="auto">
          {count > 0 && (
            <Button variant="ghost" size="sm" onClick={onClear}>
              Vaciar carrito
            </Button>
          )}
          <Button
            colorPalette="blue"
            disabled={count === 0}
            aria-describedby={count === 0 ? reasonId : undefined}
            onClick={onBuy}
          >
            Comprar fotos
          </Button>
        </HStack>
      </HStack>
    </Box>
  );
}

function PreviewCart({
  inCart,
  onToggle,
  priceOf,
  cartCount,
}: {
  inCart: boolean;
  onToggle: () => void;
  priceOf: PriceOf | null;
  cartCount: number;
}) {
  return (
    <Stack gap="2">
      <HStack justify="space-between" gap="3">
        {priceOf && (
          <Stack gap="0" minW="0">
            <Text fontWeight="bold">{formatPrice(priceOf(1).unitPrice)}</Text>
            <Text textStyle="xs" color="fg.muted">
              por foto, original sin marca de agua
            </Text>
          </Stack>
        )}
        <Button colorPalette="blue" variant={inCart ? "outline" : "solid"} onClick={onToggle} ms="auto" flexShrink={0}>
          {inCart ? "Quitar del carrito" : "Agregar al carrito"}
        </Button>
      </HStack>
      {cartCount > 0 && (
        <Text textStyle="sm" color="fg.muted" aria-live="polite">
          {photoCount(cartCount)} en el carrito
          {priceOf ? ` · ${formatPrice(priceOf(cartCount).total)}` : ""}
        </Text>
      )}
    </Stack>
  );
}

/** A paid event's photos of one bib: prices, a cart filled from the grid or the preview, then the purchase. */
export function PhotoResults({
  search,
  faceMatches = null,
  eventName,
  mode,
  onBrowse,
}: {
  search: PhotoSearch;
  /** What the athlete's selfie found (issue 23): those the bib did not find join the cart's choices. */
  faceMatches?: FaceSearchPhoto[] | null;
  eventName: string;
  /** An admin's search in admin mode shows the clean photos with nothing to buy (spec §2.6). */
  mode: SearchMode;
  /** Shows the event's bib grid. */
  onBrowse: () => void;
}) {
  const result = useBibPhotos("paid", search.eventId, search.dorsalNumber, mode);
  const navigate = useNavigate();
  const [codeOpen, setCodeOpen] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [selfiePreview, setSelfiePreview] = useState<FaceSearchPhoto | null>(null);
  const [choosingAll, setChoosingAll] = useState(false);
  const isAthlete = useSession()?.role === "athlete";
  const [first] = result.data?.pages ?? [];
  const totalFound = first?.totalFound ?? 0;
  const bibPricing = useBibPricing(search.eventId, totalFound);

  if (result.isPending) {
    return (
      <SimpleGrid columns={{ base: 2, sm: 3, md: 4 }} gap="3" aria-busy="true" aria-label="Buscando fotos">
        {Array.from({ length: 8 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Skeleton key={index} aspectRatio={1} />
        ))}
      </SimpleGrid>
    );
  }
  if (result.isError) {
    return <LoadError title="No se pudo realizar la búsqueda" query={result} />;
  }
  const dorsalNumber = first?.dorsalNumber ?? search.dorsalNumber;
  const photos = result.data.pages.flatMap((page) => page.photos);
  if (totalFound === 0 && !faceMatches?.length) {
    return <NoPhotos eventId={search.eventId} dorsalNumber={dorsalNumber} onBrowse={onBrowse} />;
  }

  // A signed-in athlete on an event open to athletes gets the clean photos free, and an admin in
  // admin mode sees them clean: nothing to buy.
  const nothingToBuy = mode === "admin" || (isAthlete && photos.every((photo) => photo.previewKind === "clean"));
  const hidden = totalFound - photos.length;
  const priceOf = bibPricing.status === "ready" ? bibPricing.priceOf : null;
  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const chooseAll = async () => {
    setChoosingAll(true);
    let pages = result.data.pages;
    // 'All' means every photo of the bib, also those behind '+N más'.
    while (pages.at(-1)?.nextCursor) {
      const next = await result.fetchNextPage();
      // A page that did not come leaves the cart as it was: 'all' would not be all.
      if (!next.data || next.isError) {
        setChoosingAll(false);
        return;
      }
      pages = next.data.pages;
    }
    setChosen(new Set(pages.flatMap((page) => page.photos.map((photo) => photo.id))));
    setChoosingAll(false);
  };
  const buy = () => {
    const selectedPhotoIds = [...photos, ...selfieOnly]
      .filter((photo) => chosen.has(photo.id))
      .map((photo) => photo.id);
    storePurchaseIntent(window.localStorage, { eventId: search.eventId, dorsalNumber, selectedPhotoIds });
    navigate(`/photo-purchase?${new URLSearchParams({ dorsal: dorsalNumber, eventId: String(search.eventId) })}`);
  };
  const movePreview = async (index: number) => {
    // The preview counts every photo of the bib; one behind '+N más' is fetched on the way.
    if (index >= photos.length && result.hasNextPage) await result.fetchNextPage();
    setPreviewIndex(index);
  };
  const previewed = previewIndex === null ? undefined : photos[previewIndex];
  /** The preview's cart button, for a photo of the bib or one the selfie found. */
  const previewCart = (photo: { id: string } | null | undefined) =>
    photo && !nothingToBuy ? (
      <PreviewCart
        inCart={chosen.has(photo.id)}
        onToggle={() => toggle(photo.id)}
        priceOf={priceOf}
        cartCount={chosen.size}
      />
    ) : null;
  const bibPhotoIds = new Set(photos.map((photo) => photo.id));
  const selfieOnly = (faceMatches ?? []).filter((photo) => !bibPhotoIds.has(photo.id));
  const selfieCertain = selfieOnly.filter((photo) => photo.certain);
  const selfiePossible = selfieOnly.filter((photo) => !photo.certain);
  const selfieTile = (photo: FaceSearchPhoto) => (
    <Box as="li" key={photo.id} listStyleType="none">
      <PhotoTile
        photo={{ originalFilename: photo.filename, thumbnailUrl: photo.thumbnailUrl }}
        chosen={nothingToBuy ? null : chosen.has(photo.id)}
        onOpen={() => setSelfiePreview(photo)}
        onToggle={() => toggle(photo.id)}
      />
    </Box>
  );

  return (
    <Stack as="section" gap="4" aria-labelledby="results-title">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Box minW="0">
          <Heading as="h2" size="lg" id="results-title">
            {photoCount(totalFound)} del dorsal {dorsalNumber}
          </Heading>
          <ParticipantName dorsalNumber={dorsalNumber} name={first?.participantName} />
        </Box>
        {!nothingToBuy && (
          <Button variant="outline" size="sm" onClick={() => setCodeOpen(true)}>
            Tengo un código de descarga
          </Button>
        )}
      </HStack>
      {!nothingToBuy && (
        <PriceList
          pricing={bibPricing}
          totalFound={totalFound}
          onChooseAll={() => void chooseAll()}
          choosingAll={choosingAll}
          allChosen={chosen.size === totalFound}
        />
      )}
      <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 4 }} gap="3">
        {photos.map((photo, index) => (
          <Box as="li" key={photo.id} listStyleType="none">
            <PhotoTile
              photo={photo}
              chosen={nothingToBuy ? null : chosen.has(photo.id)}
              onOpen={() => setPreviewIndex(index)}
              onToggle={() => toggle(photo.id)}
            />
            {isAthlete && photo.previewKind === "clean" && <AthleteDownload photo={photo} />}
          </Box>
        ))}
        {hidden > 0 && (
          <Box as="li" listStyleType="none">
            <Button
              variant="subtle"
              width="full"
              height="full"
              aspectRatio={1}
              fontSize="xl"
              onClick={() => void result.fetchNextPage()}
              loading={result.isFetchingNextPage}
              aria-label={`Ver ${formatCount(hidden)} fotos más`}
            >
              +{formatCount(hidden)} más
            </Button>
          </Box>
        )}
      </SimpleGrid>
      {selfieCertain.length > 0 && (
        <Stack as="section" gap="3" aria-labelledby="selfie-results-title">
          <Heading as="h3" size="md" id="selfie-results-title">
            {selfieCertain.length === 1
              ? "1 foto más encontrada con tu selfie"
              : `${formatCount(selfieCertain.length)} fotos más encontradas con tu selfie`}
          </Heading>
          <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 4 }} gap="3">
            {selfieCertain.map(selfieTile)}
          </SimpleGrid>
        </Stack>
      )}
      {selfiePossible.length > 0 && (
        <Stack as="section" gap="3" aria-labelledby="selfie-possible-title">
          <Box>
            <Heading as="h3" size="md" id="selfie-possible-title">
              {selfiePossible.length === 1
                ? "Podrías aparecer en 1 foto más"
                : `Podrías aparecer en ${formatCount(selfiePossible.length)} fotos más`}
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              {selfiePossible.length === 1
                ? "Se parece a tu selfie, pero no tanto como para estar seguros: revísala antes de agregarla al carrito."
                : "Se parecen a tu selfie, pero no tanto como para estar seguros: revísalas antes de agregarlas al carrito."}
            </Text>
          </Box>
          <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 4 }} gap="3">
            {selfiePossible.map(selfieTile)}
          </SimpleGrid>
        </Stack>
      )}
      <LazyPhotoPreviewDialog
        photo={selfiePreview ? { originalFilename: selfiePreview.filename, sources: [selfiePreview.webUrl] } : null}
        onClose={() => setSelfiePreview(null)}
      >
        {previewCart(selfiePreview)}
      </LazyPhotoPreviewDialog>
      {!nothingToBuy && (
        <>
          <SelectionBar
            count={chosen.size}
            price={priceOf && chosen.size > 0 ? priceOf(chosen.size) : null}
            onBuy={buy}
            onClear={() => setChosen(new Set())}
          />
          <PaymentInstructions dorsalNumber={dorsalNumber} eventName={eventName} collapsible />
          <Suspense fallback={null}>
            <CodeDialog
              eventId={search.eventId}
              dorsalNumber={dorsalNumber}
              open={codeOpen}
              onClose={() => setCodeOpen(false)}
            />
          </Suspense>
        </>
      )}
      <LazyPhotoPreviewDialog
        photo={previewed ? { originalFilename: previewed.originalFilename, sources: [previewed.webUrl] } : null}
        onClose={() => setPreviewIndex(null)}
        position={
          previewIndex === null
            ? undefined
            : { index: previewIndex, total: totalFound, onMove: (index) => void movePreview(index) }
        }
      >
        {previewCart(previewed)}
      </LazyPhotoPreviewDialog>
    </Stack>
  );
}
