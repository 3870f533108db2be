import { Button, SimpleGrid, Skeleton, Stack, Text, VStack } from "@chakra-ui/react";
import { useCallback, useState } from "react";
import { Link as RouterLink } from "react-router";
import { EmptyState } from "../../../components/ui/empty-state";
import { CheckIcon, UploadIcon } from "../../../components/ui/icons";
import { LoadError } from "../../../components/ui/load-error";
import { LoadMoreButton } from "../../../components/ui/load-more-button";
import { formatCount } from "../../../lib/format";
import { type PhotoFilter, useEventPhotos } from "../api/get-event-photos";
import { photosOf } from "../api/photo-pages";
import { PhotoCard } from "./photo-card";
import { PhotoDialog } from "./photo-dialog";

const gridColumns = { base: 1, sm: 2, md: 3, xl: 4 };

function PhotoGridSkeleton({ label }: { label: string }) {
  return (
    <SimpleGrid columns={gridColumns} gap="4" aria-busy="true" aria-label={label}>
      {Array.from({ length: 8 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Stack key={index} direction={{ base: "row", sm: "column" }} gap="3" bg="white" borderRadius="md" p="2">
          <Skeleton width={{ base: "24", sm: "full" }} aspectRatio={{ base: 1, sm: 4 / 3 }} flexShrink={0} />
          <Stack gap="2" flex="1">
            <Skeleton height="3" width="60%" />
            <Skeleton height="6" width="40%" />
            <Skeleton height="8" />
          </Stack>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

const emptyStates: Record<PhotoFilter, { title: string; description: string }> = {
  "sin-dorsal": {
    title: "No hay fotos sin dorsal",
    description: "Todas las fotos procesadas de este evento tienen al menos un dorsal.",
  },
  todas: { title: "Este evento no tiene fotos", description: "Sube fotos para empezar a revisar sus dorsales." },
};

export function PhotoList({ eventId, filter }: { eventId: number; filter: PhotoFilter }) {
  const photos = useEventPhotos(eventId, filter);
  const [shownId, setShownId] = useState<string | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const open = useCallback((photoId: string) => {
    setShownId(photoId);
    setDialogOpen(true);
  }, []);

  if (photos.isPending) return <PhotoGridSkeleton label="Cargando fotos" />;
  if (photos.isLoadingError) {
    return <LoadError title="Error cargando fotos" query={photos} />;
  }

  const list = photosOf(photos.data);
  if (list.length === 0) {
    const empty = emptyStates[filter];
    return (
      <EmptyState
        icon={filter === "sin-dorsal" ? <CheckIcon /> : <UploadIcon />}
        title={empty.title}
        description={empty.description}
        action={
          filter === "todas" && (
            <Button asChild size="sm" colorPalette="blue">
              <RouterLink to="/upload">Subir fotos</RouterLink>
            </Button>
          )
        }
      />
    );
  }

  const shown = list.find((photo) => photo.id === shownId) ?? null;
  return (
    <Stack gap="4">
      <SimpleGrid as="ul" columns={gridColumns} gap="4" aria-label="Fotos">
        {list.map((photo) => (
          <PhotoCard key={photo.id} photo={photo} reviewing={filter === "sin-dorsal"} onOpen={open} />
        ))}
      </SimpleGrid>
      <VStack gap="2">
        <Text textStyle="sm" color="fg.muted" aria-live="polite">
          {photos.hasNextPage
            ? `Mostrando ${formatCount(list.length)} fotos`
            : `${formatCount(list.length)} ${list.length === 1 ? "foto" : "fotos"} en total`}
        </Text>
        <LoadMoreButton list={photos} loadingText="Cargando..." width={{ base: "full", sm: "auto" }} />
        {photos.isError && (
          <Text textStyle="sm" color="red.600" role="alert">
            Error cargando fotos: {photos.error.message}
          </Text>
        )}
      </VStack>
      <PhotoDialog photo={shown} open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </Stack>
  );
}
