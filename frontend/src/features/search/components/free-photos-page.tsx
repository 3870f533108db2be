import { Box, Button, chakra, Heading, HStack, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import { idParam, type PhotoDto, pathFor } from "@dorsal/shared";
import { browseApi } from "@dorsal/shared/contract/browse";
import { useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router";
import { LazyPhotoPreviewDialog } from "../../../components/ui/lazy-photo-preview-dialog";
import { LoadError } from "../../../components/ui/load-error";
import { PageHeader } from "../../../components/ui/page-header";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { downloadFile, pause } from "../../../lib/download-file";
import { formatCount } from "../../../lib/format";
import { useBibPhotos } from "../api/browse";
import { BibGrid, EventCards } from "./browse";
import { NoPhotos } from "./no-photos";
import { ParticipantName } from "./participant-name";

/** Spec §9: free photos are downloaded one after another, 800 ms apart. */
const freeSpacingMs = 800;

type DownloadState = "idle" | "busy" | "done" | "failed";

const freeDownloadUrl = (photo: PhotoDto) => pathFor(browseApi.freeDownload, { photoId: photo.id });

/**
 * A free event's photos of one bib, with only free downloads (spec §2.6): on /free-photos, and on
 * /search when the searched event gives its photos away.
 */
export function FreePhotos({ eventId, dorsal, onBrowse }: { eventId: number; dorsal: string; onBrowse: () => void }) {
  const photos = useBibPhotos("free", eventId, dorsal);
  const [states, setStates] = useState<Record<string, DownloadState>>({});
  const [running, setRunning] = useState(false);
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);

  if (photos.isPending) return <Skeleton height="48" />;
  if (photos.isError) {
    return <LoadError title="Error cargando fotos" query={photos} />;
  }
  const loaded = photos.data.pages.flatMap((page) => page.photos);
  const totalFound = photos.data.pages[0]?.totalFound ?? 0;
  if (totalFound === 0) return <NoPhotos eventId={eventId} dorsalNumber={dorsal} onBrowse={onBrowse} />;

  const download = async (photo: PhotoDto) => {
    setStates((current) => ({ ...current, [photo.id]: "busy" }));
    try {
      await downloadFile(freeDownloadUrl(photo), photo.originalFilename, () => {});
      setStates((current) => ({ ...current, [photo.id]: "done" }));
    } catch {
      setStates((current) => ({ ...current, [photo.id]: "failed" }));
    }
  };
  const downloadAll = async () => {
    setRunning(true);
    for (const [index, photo] of loaded.entries()) {
      if (index > 0) await pause(freeSpacingMs);
      await download(photo);
    }
    setRunning(false);
  };
  const movePreview = async (index: number) => {
    if (index >= loaded.length && photos.hasNextPage) await photos.fetchNextPage();
    setPreviewIndex(index);
  };
  const hidden = totalFound - loaded.length;
  const previewed = previewIndex === null ? undefined : loaded[previewIndex];

  return (
    <Stack as="section" gap="4" aria-labelledby="free-results">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Box minW="0">
          <Heading as="h2" size="lg" id="free-results">
            {formatCount(totalFound)} {totalFound === 1 ? "foto" : "fotos"} gratis del dorsal {dorsal}
          </Heading>
          <ParticipantName dorsalNumber={dorsal} name={photos.data.pages[0]?.participantName} />
        </Box>
        <Button colorPalette="green" onClick={() => void downloadAll()} loading={running}>
          Descargar todas
        </Button>
      </HStack>
      <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 4 }} gap="3">
        {loaded.map((photo, index) => {
          const state = states[photo.id] ?? "idle";
          return (
            <Box as="li" key={photo.id} listStyleType="none">
              <chakra.button
                type="button"
                onClick={() => setPreviewIndex(index)}
                aria-label={`Ver foto ${photo.originalFilename}`}
                width="full"
                aspectRatio={1}
                bg="gray.100"
                borderRadius="md"
                overflow="hidden"
                cursor="pointer"
                focusRingColor="green.500"
              >
                <ThumbnailImage url={photo.webUrl ?? photo.thumbnailUrl} />
              </chakra.button>
              <Button
                size="xs"
                variant="outline"
                width="full"
                mt="1"
                onClick={() => void download(photo)}
                loading={state === "busy"}
                disabled={running}
                aria-label={`Descargar ${photo.originalFilename}`}
              >
                {state === "done" ? "Descargada" : "Descargar"}
              </Button>
              {state === "failed" && (
                <Text textStyle="xs" color="red.600" role="alert">
                  Error al descargar la foto. Por favor intenta de nuevo.
                </Text>
              )}
            </Box>
          );
        })}
      </SimpleGrid>
      {hidden > 0 && (
        <Button variant="subtle" onClick={() => void photos.fetchNextPage()} loading={photos.isFetchingNextPage}>
          +{formatCount(hidden)} más
        </Button>
      )}
      <LazyPhotoPreviewDialog
        photo={
          previewed
            ? { originalFilename: previewed.originalFilename, sources: [previewed.webUrl, previewed.thumbnailUrl] }
            : null
        }
        onClose={() => setPreviewIndex(null)}
        position={
          previewIndex === null
            ? undefined
            : { index: previewIndex, total: totalFound, onMove: (index) => void movePreview(index) }
        }
      >
        {previewed && (
          <Button
            colorPalette="green"
            alignSelf="end"
            onClick={() => void download(previewed)}
            loading={states[previewed.id] === "busy"}
            disabled={running}
          >
            {states[previewed.id] === "done" ? "Descargada" : "Descargar gratis"}
          </Button>
        )}
      </LazyPhotoPreviewDialog>
    </Stack>
  );
}

/** Spec §2.6 /free-photos: a free event, then a bib, then its photos with the GRATIS/DEMO overlay. */
export function FreePhotosPage() {
  const [params, setParams] = useSearchParams();
  const event = idParam.safeParse(params.get("eventId"));
  const dorsal = params.get("dorsal");
  const page = Math.max(1, Number(params.get("page")) || 1);

  return (
    <Box>
      <PageHeader
        title="Fotos gratis"
        subtitle="Eventos que liberaron sus fotos: descárgalas sin costo, con la marca GRATIS/DEMO"
      />
      <Stack gap="6">
        {event.success && (
          <HStack gap="3" wrap="wrap">
            <Button size="sm" variant="ghost" onClick={() => setParams({})}>
              ‹ Otros eventos
            </Button>
            {dorsal && (
              <Button size="sm" variant="ghost" onClick={() => setParams({ eventId: String(event.data) })}>
                ‹ Otros dorsales
              </Button>
            )}
          </HStack>
        )}
        {!event.success && (
          <EventCards
            catalogue="free"
            emptyText="Ningún evento tiene fotos gratis por ahora."
            onChoose={(chosen) => setParams({ eventId: String(chosen.id) })}
          />
        )}
        {event.success && !dorsal && (
          <BibGrid
            catalogue="free"
            eventId={event.data}
            page={page}
            onPage={(next) => setParams({ eventId: String(event.data), page: String(next) })}
            onChoose={(bib) => setParams({ eventId: String(event.data), dorsal: bib })}
          />
        )}
        {event.success && dorsal && (
          <FreePhotos
            eventId={event.data}
            dorsal={dorsal}
            onBrowse={() => setParams({ eventId: String(event.data) })}
          />
        )}
        <Text textStyle="sm" color="fg.muted">
          ¿Buscas las fotos de una carrera paga? <RouterLink to="/search">Busca por dorsal</RouterLink>
        </Text>
      </Stack>
    </Box>
  );
}
