import { Box, CloseButton, Dialog, HStack, IconButton, Image, Portal, Stack, Text } from "@chakra-ui/react";
import { type KeyboardEvent, type ReactNode, type TouchEvent, useRef, useState } from "react";
import { ArrowLeftIcon } from "./icons";

export interface PreviewedPhoto {
  originalFilename: string;
  /** Tried in order: a copy that fails to load gives way to the next (spec §8: the web copy, then a smaller one). */
  sources: (string | null)[];
}

/** Where the previewed photo sits in the list the preview walks through. */
export interface PreviewPosition {
  /** From 0. */
  index: number;
  total: number;
  onMove: (index: number) => void;
}

/** A horizontal finger movement of at least this many pixels turns the page (spec §9's swipe threshold). */
const swipeThresholdPx = 50;

function PreviewImage({ photo }: { photo: PreviewedPhoto }) {
  const [failed, setFailed] = useState(0);
  const url = photo.sources.filter((source): source is string => Boolean(source))[failed];
  if (!url) return <Text color="gray.300">No se pudo cargar la vista previa</Text>;
  return (
    <Image
      src={url}
      alt={`Foto ${photo.originalFilename}`}
      maxW="full"
      maxH="full"
      objectFit="contain"
      onError={() => setFailed((count) => count + 1)}
    />
  );
}

function Stepper({ position }: { position: PreviewPosition }) {
  const { index, total, onMove } = position;
  return (
    <HStack justify="space-between" gap="2">
      <IconButton
        aria-label="Foto anterior"
        variant="outline"
        size="sm"
        disabled={index <= 0}
        onClick={() => onMove(index - 1)}
      >
        <ArrowLeftIcon />
      </IconButton>
      <Text textStyle="sm" color="fg.muted" aria-live="polite">
        Foto {index + 1} de {total}
      </Text>
      <IconButton
        aria-label="Foto siguiente"
        variant="outline"
        size="sm"
        disabled={index >= total - 1}
        onClick={() => onMove(index + 1)}
      >
        <ArrowLeftIcon transform="rotate(180deg)" />
      </IconButton>
    </HStack>
  );
}

/**
 * The photo preview dialog (spec §2.6), with 'No se pudo cargar la vista previa' when no copy
 * loads. Given a `position` it walks a list: 'Foto 3 de 12', previous and next buttons, the arrow
 * keys and a swipe on the photo. `children` go under the photo (its price and cart action, or its
 * download).
 */
export function PhotoPreviewDialog({
  photo,
  onClose,
  position,
  children,
}: {
  photo: PreviewedPhoto | null;
  onClose: () => void;
  position?: PreviewPosition;
  children?: ReactNode;
}) {
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const move = (step: -1 | 1) => {
    if (!position) return;
    const next = position.index + step;
    if (next >= 0 && next < position.total) position.onMove(next);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowLeft") move(-1);
    if (event.key === "ArrowRight") move(1);
  };
  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    touchStart.current = event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    // A mostly vertical movement scrolls; only a clear sideways one turns the page.
    if (Math.abs(dx) < swipeThresholdPx || Math.abs(dx) < Math.abs(touch.clientY - start.y)) return;
    move(dx < 0 ? 1 : -1);
  };

  return (
    <Dialog.Root
      open={photo !== null}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      size="xl"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="2" onKeyDown={onKeyDown}>
            <Dialog.Header>
              <Dialog.Title>Vista previa</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Box
                  height={{ base: "45vh", md: "60vh" }}
                  bg="gray.900"
                  borderRadius="md"
                  display="flex"
                  alignItems="center"
                  justifyContent="center"
                  overflow="hidden"
                  // Sideways movements are the swipe's; the page may still scroll and zoom.
                  touchAction="pan-y pinch-zoom"
                  onTouchStart={onTouchStart}
                  onTouchEnd={onTouchEnd}
                >
                  {photo && <PreviewImage key={photo.sources.join(" ")} photo={photo} />}
                </Box>
                {position && position.total > 1 && <Stepper position={position} />}
                {children}
              </Stack>
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
