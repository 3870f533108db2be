import { Box, Button, HStack, Text, VisuallyHidden } from "@chakra-ui/react";
import { type ChangeEvent, type DragEvent, useRef, useState } from "react";
import { CameraIcon, UploadIcon } from "../../../components/ui/icons";
import { acceptAttribute } from "../../../lib/image-input";

interface PhotoDropZoneProps {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  /** Phones get separate gallery and camera buttons (spec §2.5). */
  phone: boolean;
}

/**
 * Dropping is a shortcut for mouse users; the buttons are the accessible way in. On phones the
 * gallery button opens the photo library (`image/*`) and the camera button the camera itself.
 */
export function PhotoDropZone({ onFiles, disabled, phone }: PhotoDropZoneProps) {
  const galleryInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? []);
    // Clearing lets the same file be picked again after it was removed from the list.
    event.currentTarget.value = "";
    if (files.length > 0) onFiles(files);
  };

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) onFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <Box
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={dragging ? "blue.500" : "gray.300"}
      bg={dragging ? "blue.50" : "white"}
      borderRadius="xl"
      px="6"
      py={{ base: "8", md: "12" }}
      textAlign="center"
      transition="background 0.15s, border-color 0.15s"
      opacity={disabled ? 0.6 : 1}
    >
      <UploadIcon boxSize="10" color="blue.500" mb="3" />
      <Text fontWeight="semibold" hideBelow="md">
        Arrastra tus fotos aquí
      </Text>
      <Text color="fg.muted" textStyle="sm" mb="4">
        JPG, PNG, WebP, TIFF, BMP, GIF o HEIC · máximo 50 MB por foto
      </Text>
      <HStack justify="center" gap="3" wrap="wrap">
        <Button colorPalette="blue" onClick={() => galleryInput.current?.click()} disabled={disabled}>
          {phone ? "Galería" : "Seleccionar fotos"}
        </Button>
        {phone && (
          <Button variant="outline" onClick={() => cameraInput.current?.click()} disabled={disabled}>
            <CameraIcon /> Cámara
          </Button>
        )}
      </HStack>
      <VisuallyHidden>
        <input
          ref={galleryInput}
          type="file"
          multiple
          accept={phone ? "image/*" : acceptAttribute}
          onChange={pick}
          tabIndex={-1}
          aria-label={phone ? "Elegir fotos de la galería" : "Seleccionar fotos"}
        />
        <input
          ref={cameraInput}
          type="file"
          accept="image/*"
          capture="environment"
          onChange={pick}
          tabIndex={-1}
          aria-label="Tomar foto con la cámara"
        />
      </VisuallyHidden>
    </Box>
  );
}
