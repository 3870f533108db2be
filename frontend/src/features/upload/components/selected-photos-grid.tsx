import { Badge, Box, Button, CloseButton, HStack, Image, Progress, SimpleGrid, Text } from "@chakra-ui/react";
import { memo, useEffect, useState } from "react";
import { formatBytes, formatCount } from "../../../lib/format";
import type { SelectedPhoto } from "../hooks/use-upload-queue";

/** Decoding thousands of full-size photos would exhaust a phone's memory; the rest are counted. */
const maxTiles = 60;

function usePreviewUrl(file: File): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

const PhotoTile = memo(function PhotoTile({
  photo,
  onRemove,
  locked,
}: {
  photo: SelectedPhoto;
  onRemove: (key: string) => void;
  locked: boolean;
}) {
  const previewUrl = usePreviewUrl(photo.file);
  const [previewFailed, setPreviewFailed] = useState(false);
  const percent = Math.round((photo.loadedBytes / photo.file.size) * 100);

  return (
    <Box as="li" listStyleType="none" position="relative" borderRadius="md" overflow="hidden" bg="gray.100">
      <Box aspectRatio={1} display="flex" alignItems="center" justifyContent="center">
        {previewUrl && !previewFailed ? (
          <Image
            src={previewUrl}
            alt={photo.file.name}
            objectFit="cover"
            width="full"
            height="full"
            loading="lazy"
            decoding="async"
            onError={() => setPreviewFailed(true)}
          />
        ) : (
          <Text textStyle="xs" color="fg.muted" p="2" textAlign="center" wordBreak="break-all">
            {photo.file.name}
          </Text>
        )}
      </Box>
      {!locked && (
        <CloseButton
          size="2xs"
          variant="solid"
          position="absolute"
          top="1"
          right="1"
          aria-label={`Quitar ${photo.file.name}`}
          onClick={() => onRemove(photo.key)}
        />
      )}
      <Box px="2" py="1" bg="white">
        <Text textStyle="xs" truncate title={photo.file.name}>
          {photo.file.name}
        </Text>
        {photo.status === "error" ? (
          <Badge colorPalette="red" size="sm" title={photo.error}>
            Error al subir
          </Badge>
        ) : photo.status === "uploading" ? (
          <Progress.Root value={percent} size="xs" colorPalette="blue" aria-label={`Subiendo ${photo.file.name}`}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : (
          <Text textStyle="xs" color="fg.muted">
            {formatBytes(photo.file.size)}
          </Text>
        )}
      </Box>
    </Box>
  );
});

interface SelectedPhotosGridProps {
  photos: SelectedPhoto[];
  onRemove: (key: string) => void;
  onClear: () => void;
  locked: boolean;
}

export function SelectedPhotosGrid({ photos, onRemove, onClear, locked }: SelectedPhotosGridProps) {
  const hidden = photos.length - maxTiles;
  return (
    <Box as="section" aria-labelledby="selected-photos-title">
      <HStack justify="space-between" mb="3">
        <Text id="selected-photos-title" fontWeight="semibold">
          {formatCount(photos.length)} {photos.length === 1 ? "foto seleccionada" : "fotos seleccionadas"}
        </Text>
        <Button size="sm" variant="ghost" colorPalette="red" onClick={onClear} disabled={locked}>
          Limpiar todo
        </Button>
      </HStack>
      <SimpleGrid as="ul" columns={{ base: 3, sm: 4, md: 6 }} gap="2">
        {photos.slice(0, maxTiles).map((photo) => (
          <PhotoTile key={photo.key} photo={photo} onRemove={onRemove} locked={locked} />
        ))}
      </SimpleGrid>
      {hidden > 0 && (
        <Text mt="2" textStyle="sm" color="fg.muted">
          +{formatCount(hidden)} más
        </Text>
      )}
    </Box>
  );
}
