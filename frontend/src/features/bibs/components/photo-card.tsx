import { Badge, Box, Button, Card, chakra, HStack, Link, Stack, Text } from "@chakra-ui/react";
import { bibNumber, type PhotoDto } from "@dorsal/shared";
import { memo, useState } from "react";
import { Link as RouterLink } from "react-router";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { CheckIcon, TrashIcon } from "../../../components/ui/icons";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { toaster } from "../../../components/ui/toaster";
import { useRemoveDuplicate } from "../api/remove-duplicate";
import { useAcceptSuggestion, useAddBib, useRemoveBib } from "../api/update-bibs";
import { AddBibForm } from "./add-bib-form";
import { BibChips } from "./bib-chips";
import { BibSuggestions } from "./bib-suggestions";

const statusBadges: Record<string, { label: string; palette: string }> = {
  pending: { label: "Pendiente", palette: "gray" },
  processing: { label: "Procesando", palette: "yellow" },
  failed: { label: "Error al procesar", palette: "red" },
  duplicate: { label: "Repetida", palette: "orange" },
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

/**
 * A copy of a photo the event already has: nothing to correct (it is never published), so the card
 * says which photo it copies and offers to remove the record, after a confirmation.
 */
function DuplicateNote({ photo }: { photo: PhotoDto }) {
  const remove = useRemoveDuplicate(photo.eventId);
  const [confirming, setConfirming] = useState(false);
  const original = photo.duplicateOf?.originalFilename;
  // Awaited rather than with per-call callbacks: the card leaves the list on success, and with it
  // this component, whose callbacks would then never run.
  const confirm = async () => {
    try {
      await remove.mutateAsync(photo.id);
      toaster.create({ type: "success", title: "Foto repetida quitada", description: photo.originalFilename });
    } catch {
      // The query client reported the failure.
    }
  };
  return (
    <Stack gap="2">
      <Text textStyle="xs" color="fg.muted" overflowWrap="anywhere">
        {original ? `Igual a «${original}», que ya está en el evento.` : "Esta foto ya estaba en el evento."} No se
        publica ni aparece en la búsqueda.
      </Text>
      <Button
        size="xs"
        variant="outline"
        colorPalette="red"
        alignSelf="flex-start"
        onClick={() => setConfirming(true)}
        aria-label={`Quitar la copia ${photo.originalFilename}`}
      >
        <TrashIcon /> Quitar copia
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="¿Quitar la foto repetida?"
        confirmLabel="Quitar"
        onConfirm={confirm}
        pending={remove.isPending}
        pendingText="Quitando..."
      >
        <Text overflowWrap="anywhere">
          Se borra «{photo.originalFilename}», la copia.{" "}
          {original
            ? `La foto «${original}» sigue en el evento con sus dorsales.`
            : "La foto original sigue en el evento."}
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}

/** Why a photo that is not processed cannot be corrected, and where it goes from here. */
function NotEditable({ photo }: { photo: PhotoDto }) {
  if (photo.processingStatus === "failed") {
    return (
      <Text textStyle="xs" color="fg.muted" overflowWrap="anywhere">
        No se pudo procesar{photo.failureReason ? `: ${photo.failureReason}` : ""}.{" "}
        <Link asChild color="blue.700">
          <RouterLink to={`/processing?eventId=${photo.eventId}`}>Reintentar en Fotos con errores</RouterLink>
        </Link>
      </Text>
    );
  }
  return (
    <Text textStyle="xs" color="fg.muted">
      Podrás corregir los dorsales cuando termine el procesamiento.
    </Text>
  );
}

/** Shared by the card and the preview dialog: the chips, the add form and their feedback. */
export function BibEditor({ photo }: { photo: PhotoDto }) {
  const add = useAddBib(photo.eventId, photo.id);
  const remove = useRemoveBib(photo.eventId, photo.id);
  const accept = useAcceptSuggestion(photo.eventId, photo.id);
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

  const acceptSuggestion = (read: string, dorsalNumber: string) =>
    accept.mutate(
      { read, dorsalNumber },
      {
        onSuccess: () =>
          toaster.create({
            type: "success",
            title: `Dorsal ${dorsalNumber} agregado`,
            description: "La búsqueda ya muestra esta foto para ese dorsal.",
          }),
      },
    );

  const dismissSuggestion = (read: string) =>
    remove.mutate(read, {
      onSuccess: () => toaster.create({ type: "success", title: `Lectura ${read} descartada` }),
      onError: (error) =>
        toaster.create({ type: "error", title: "No se pudo descartar la lectura", description: messageOf(error) }),
    });

  // A copy has no bibs of its own: "Sin dorsal" would send the organizer to tag it for nothing.
  if (photo.processingStatus === "duplicate") return <DuplicateNote photo={photo} />;
  return (
    <Stack gap="2.5">
      <BibChips
        bibs={bibs}
        removing={remove.isPending ? remove.variables : undefined}
        onRemove={editable ? removeBib : undefined}
      />
      {editable && (
        <BibSuggestions
          suggestions={photo.suggestions ?? []}
          busyRead={accept.isPending ? accept.variables.read : remove.isPending ? remove.variables : undefined}
          onAccept={acceptSuggestion}
          onDismiss={dismissSuggestion}
        />
      )}
      {editable ? (
        <AddBibForm photoName={photo.originalFilename} pending={add.isPending} onAdd={addBib} />
      ) : (
        <NotEditable photo={photo} />
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
