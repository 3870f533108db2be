import { Box, Button, chakra, EmptyState, Heading, HStack, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import type { PhotoDto } from "@dorsal/shared";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { SearchIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { PhotoPreviewDialog } from "../../../components/ui/photo-preview-dialog";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { apiFetch } from "../../../lib/api-fetch";
import { downloadFile } from "../../../lib/download-file";
import { formatCount } from "../../../lib/format";
import { useSession } from "../../../lib/session";
import { CodeDialog } from "../../download-codes/components/code-dialog";
import { PaymentInstructions } from "../../download-codes/components/payment-instructions";
import { useBibPhotos } from "../api/browse";
import type { PhotoSearch } from "../api/search-photos";

function Thumbnail({ photo, onOpen }: { photo: PhotoDto; onOpen: () => void }) {
  const label = `Ver foto ${photo.originalFilename}`;
  return (
    <chakra.button
      type="button"
      onClick={onOpen}
      aria-label={label}
      aspectRatio={1}
      borderRadius="md"
      overflow="hidden"
      bg="gray.100"
      display="flex"
      alignItems="center"
      justifyContent="center"
      cursor="pointer"
      _hover={{ opacity: 0.9 }}
      focusRingColor="blue.500"
    >
      <ThumbnailImage url={photo.thumbnailUrl} />
    </chakra.button>
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
      const { url } = await apiFetch<{ url: string }>(`/api/athlete/photos/${encodeURIComponent(photo.id)}/download`);
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

export function PhotoResults({ search, eventName }: { search: PhotoSearch; eventName: string }) {
  const result = useBibPhotos("paid", search.eventId, search.dorsalNumber);
  const [codeOpen, setCodeOpen] = useState(false);
  const user = useSession();
  const isAthlete = user?.role === "athlete";
  const [preview, setPreview] = useState<PhotoDto | null>(null);

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
    return <LoadError title="No se pudo realizar la búsqueda" message={result.error.message} />;
  }
  const [first] = result.data.pages;
  const totalFound = first?.totalFound ?? 0;
  const dorsalNumber = first?.dorsalNumber ?? search.dorsalNumber;
  const photos = result.data.pages.flatMap((page) => page.photos);
  if (totalFound === 0) {
    return (
      <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderRadius="lg" bg="white">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <SearchIcon />
          </EmptyState.Indicator>
          <EmptyState.Title>Sin resultados</EmptyState.Title>
          <EmptyState.Description>No se encontraron fotos para este dorsal</EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }

  const hidden = totalFound - photos.length;
  const purchase = new URLSearchParams({ dorsal: dorsalNumber, eventId: String(search.eventId) });

  return (
    <Stack as="section" gap="4" aria-labelledby="results-title">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Heading as="h2" size="lg" id="results-title">
          {formatCount(totalFound)} {totalFound === 1 ? "foto" : "fotos"} del dorsal {dorsalNumber}
        </Heading>
        <HStack wrap="wrap" gap="2">
          <Button variant="outline" onClick={() => setCodeOpen(true)}>
            Tengo un código de descarga
          </Button>
          <Button asChild colorPalette="blue">
            <RouterLink to={`/photo-purchase?${purchase}`}>Comprar fotos</RouterLink>
          </Button>
        </HStack>
      </HStack>
      <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 4 }} gap="3">
        {photos.map((photo) => (
          <Box as="li" key={photo.id} listStyleType="none">
            <Thumbnail photo={photo} onOpen={() => setPreview(photo)} />
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
      <PaymentInstructions dorsalNumber={dorsalNumber} eventName={eventName} collapsible />
      <PhotoPreviewDialog
        photo={preview && { originalFilename: preview.originalFilename, sources: [preview.webUrl] }}
        onClose={() => setPreview(null)}
      />
      <CodeDialog
        eventId={search.eventId}
        dorsalNumber={dorsalNumber}
        open={codeOpen}
        onClose={() => setCodeOpen(false)}
      />
    </Stack>
  );
}
