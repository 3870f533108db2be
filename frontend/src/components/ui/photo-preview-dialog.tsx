import { CloseButton, Dialog, Image, Portal, Text } from "@chakra-ui/react";
import { useState } from "react";

export interface PreviewedPhoto {
  originalFilename: string;
  /** Tried in order: a copy that fails to load gives way to the next (spec §8: the web copy, then a smaller one). */
  sources: (string | null)[];
}

/** The photo preview dialog (spec §2.6), with 'No se pudo cargar la vista previa' when no copy loads. */
export function PhotoPreviewDialog({ photo, onClose }: { photo: PreviewedPhoto | null; onClose: () => void }) {
  const [failed, setFailed] = useState(0);
  const sources = photo?.sources.filter((source): source is string => Boolean(source)) ?? [];
  const url = sources[failed];
  return (
    <Dialog.Root
      open={photo !== null}
      onOpenChange={(details) => {
        if (details.open) return;
        setFailed(0);
        onClose();
      }}
      size="xl"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="2">
            <Dialog.Header>
              <Dialog.Title>Vista previa</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {url ? (
                <Image
                  src={url}
                  alt={`Foto ${photo?.originalFilename ?? ""}`}
                  width="full"
                  borderRadius="md"
                  onError={() => setFailed((count) => count + 1)}
                />
              ) : (
                <Text color="fg.muted">No se pudo cargar la vista previa</Text>
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Cerrar" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
