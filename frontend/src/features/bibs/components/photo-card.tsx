import { Badge, Box, Card, chakra, HStack, Stack, Text } from "@chakra-ui/react";
import { bibNumber, type PhotoDto } from "@dorsal/shared";
import { memo } from "react";
import { CheckIcon } from "../../../components/ui/icons";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { toaster } from "../../../components/ui/toaster";
import { useAddBib, useRemoveBib } from "../api/update-bibs";
import { AddBibForm } from "./add-bib-form";
import { BibChips } from "./bib-chips";

const statusBadges: Record<string, { label: string; palette: string }> = {
  pending: { label: "Pendiente", palette: "gray" },
  processing: { label: "Procesando", palette: "yellow" },
  failed: { label: "Error al procesar", palette: "red" },
  duplicate: { label: "Duplicada", palette: "orange" },
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function Thumbnail({ photo, onOpen }: { photo: PhotoDto; onOpen: () => void }) {
  return (
    <chakra.button
      type="button"
      onClick={onOpen}
      aria-label={`Ver foto ${photo.originalFilename}`}
      width={{ base: "28", sm: "full" }}
      flexShrink={0}
      aspectRatio={{ base: 1, sm: 4 / 3 }}
      bg="gray.100"
      display="flex"
      alignItems="center"
      justifyContent="center"
      overflow="hidden"
      cursor="pointer"
      _hover={{ opacity: 0.9 }}
      focusRingColor="blue.500"
      focusRingOffset="-2px"
    >
      <ThumbnailImage url={photo.thumbnailUrl} />
    </chakra.button>
  );
}

/** Shared by the card and the preview dialog: the chips, the add form and their feedback. */
export function BibEditor({ photo }: { photo: PhotoDto }) {
  const add = useAddBib(photo.eventId, photo.id);
  const remove = useRemoveBib(photo.eventId, photo.id);
  const bibs = photo.bibs ?? [];
  const editable = photo.processingStatus === "successful";

  const addBib = async (typed: string) => {
    const parsed = bibNumber.safeParse(typed);
    if (parsed.success && bibs.some((bib) => bib.number === parsed.data)) {
      toaster.create({ type: "info", title: `El dorsal ${parsed.data} ya está en esta foto` });
      return;
    }
    try {
      await add.mutateAsync(typed);
    } catch (error) {
      toaster.create({ type: "error", title: "No se pudo agregar el dorsal", description: messageOf(error) });
      throw error;
    }
  };

  const removeBib = (number: string) =>
    remove.mutate(number, {
      onSuccess: () =>
        toaster.create({
          type: "success",
          title: `Dorsal ${number} quitado`,
          description: "La búsqueda ya no muestra esta foto para ese dorsal.",
          action: {
            label: "Deshacer",
            onClick: () =>
              add.mutate(number, {
                onError: (error) =>
                  toaster.create({ type: "error", title: "No se pudo deshacer", description: messageOf(error) }),
              }),
          },
        }),
      onError: (error) =>
        toaster.create({ type: "error", title: "No se pudo quitar el dorsal", description: messageOf(error) }),
    });

  return (
    <Stack gap="2.5">
      <BibChips
        bibs={bibs}
        removing={remove.isPending ? remove.variables : undefined}
        onRemove={editable ? removeBib : undefined}
      />
      {editable ? (
        <AddBibForm photoName={photo.originalFilename} pending={add.isPending} onAdd={addBib} />
      ) : (
        <Text textStyle="xs" color="fg.muted">
          Podrás corregir los dorsales cuando termine el procesamiento.
        </Text>
      )}
    </Stack>
  );
}

interface PhotoCardProps {
  photo: PhotoDto;
  /** Listed under 'Sin dorsal': a photo tagged since the list loaded is marked as done. */
  reviewing: boolean;
  onOpen: (photoId: string) => void;
}

export const PhotoCard = memo(function PhotoCard({ photo, reviewing, onOpen }: PhotoCardProps) {
  const status = statusBadges[photo.processingStatus];
  const tagged = reviewing && (photo.bibs ?? []).length > 0;
  return (
    <Card.Root
      as="li"
      data-testid="photo-card"
      listStyleType="none"
      size="sm"
      overflow="hidden"
      flexDirection={{ base: "row", sm: "column" }}
      borderColor={tagged ? "green.300" : undefined}
    >
      <Thumbnail photo={photo} onOpen={() => onOpen(photo.id)} />
      <Card.Body p="3" gap="2" minW="0">
        <HStack justify="space-between" gap="2" minW="0">
          <Text textStyle="xs" color="fg.muted" truncate title={photo.originalFilename}>
            {photo.originalFilename}
          </Text>
          {status && (
            <Badge colorPalette={status.palette} size="sm" title={photo.failureReason ?? undefined} flexShrink={0}>
              {status.label}
            </Badge>
          )}
          {tagged && (
            <Badge colorPalette="green" size="sm" flexShrink={0}>
              <CheckIcon /> Revisada
            </Badge>
          )}
        </HStack>
        <Box>
          <BibEditor photo={photo} />
        </Box>
      </Card.Body>
    </Card.Root>
  );
});
