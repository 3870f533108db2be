import { Box, CloseButton, Dialog, Flex, Image, Portal, Stack, Text } from "@chakra-ui/react";
import type { PhotoDto } from "@dorsal/shared";
import { useState } from "react";
import { BibEditor } from "./photo-card";

/**
 * The web copy with a frame around each bib the machine read. Boxes are fractions of the image,
 * so the frame wraps the image exactly (no letterboxing) and boxes are placed in percent.
 */
function AnnotatedPhoto({ photo }: { photo: PhotoDto }) {
  const [failed, setFailed] = useState(false);
  if (!photo.webUrl || failed) {
    return <Text color="fg.muted">No se pudo cargar la vista previa</Text>;
  }
  const boxed = (photo.bibs ?? []).filter((bib) => bib.source === "machine" && bib.box);
  return (
    <Flex justify="center" bg="gray.900" borderRadius="md" overflow="hidden">
      <Box position="relative" maxW="full">
        <Image
          src={photo.webUrl}
          alt={`Foto ${photo.originalFilename}`}
          display="block"
          maxW="full"
          // Room for the title, the caption and the editor below, so the dialog fits the screen.
          maxH={{ base: "50dvh", md: "calc(100dvh - 24rem)" }}
          onError={() => setFailed(true)}
        />
        {boxed.map((bib) =>
          bib.box ? (
            <Box
              key={bib.number}
              data-testid="bib-box"
              position="absolute"
              left={`${bib.box.left * 100}%`}
              top={`${bib.box.top * 100}%`}
              width={`${bib.box.width * 100}%`}
              height={`${bib.box.height * 100}%`}
              borderWidth="2px"
              borderColor="yellow.300"
              boxShadow="0 0 0 1px rgba(0,0,0,0.6)"
              pointerEvents="none"
              aria-hidden="true"
            >
              <Text
                position="absolute"
                {...(bib.box.top < 0.08 ? { top: "100%" } : { bottom: "100%" })}
                left="-2px"
                bg="yellow.300"
                color="gray.900"
                fontWeight="bold"
                textStyle="xs"
                px="1"
                lineHeight="short"
                whiteSpace="nowrap"
              >
                {bib.number}
              </Text>
            </Box>
          ) : null,
        )}
      </Box>
    </Flex>
  );
}

interface PhotoDialogProps {
  /** Kept while the dialog closes, so its content does not vanish mid-animation. */
  photo: PhotoDto | null;
  open: boolean;
  onClose: () => void;
}

export function PhotoDialog({ photo, open, onClose }: PhotoDialogProps) {
  const machineCount = (photo?.bibs ?? []).filter((bib) => bib.source === "machine" && bib.box).length;
  return (
    <Dialog.Root
      open={open && photo !== null}
      onOpenChange={(details) => !details.open && onClose()}
      // `mdDown`, not `base`: the full-screen variant would leak its height into the larger size.
      size={{ mdDown: "full", md: "xl" }}
      placement="center"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {photo && (
              <>
                <Dialog.Header pe="12">
                  <Dialog.Title truncate>{photo.originalFilename}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="4">
                    <AnnotatedPhoto photo={photo} />
                    <Text textStyle="sm" color="fg.muted">
                      {machineCount > 0
                        ? "Los recuadros marcan los dorsales detectados automáticamente."
                        : "El reconocimiento automático no marcó ningún dorsal en esta foto."}
                    </Text>
                    <BibEditor photo={photo} />
                  </Stack>
                </Dialog.Body>
              </>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Cerrar" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
