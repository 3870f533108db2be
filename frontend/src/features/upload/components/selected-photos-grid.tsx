import { Badge, Box, Button, CloseButton, HStack, Image, Progress, SimpleGrid, Text } from "@chakra-ui/react";
import { memo, useEffect, useState } from "react";
import { formatBytes, formatCount } from "../../../lib/format";
import type { SelectedPhoto } from "../hooks/use-uploader";

/** Decoding thousands of full-size photos would exhaust a phone's memory; the rest are counted. */
const maxTiles = 60;

function usePreviewUrl(data: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!data) return;
    const objectUrl = URL.createObjectURL(data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [data]);
  return url;
}

const PhotoTile = memo(function PhotoTile({
  photo,
  onRemove,
  locked,
}: {
  photo: SelectedPhoto;
  onRemove: (id: string) => void;
  locked: boolean;
}) {
  const previewUrl = usePreviewUrl(photo.data);
  const [previewFailed, setPreviewFailed] = useState(false);

  return (
    <Box as="li" listStyleType="none" position="relative" borderRadius="md" overflow="hidden" bg="gray.100">
      <Box aspectRatio={1} display="flex" alignItems="center" justifyContent="center">
        {previewUrl && !previewFailed ? (
          <Image
            src={previewUrl}
            alt={photo.name}
            objectFit="cover"
            width="full"
            height="full"
            loading="lazy"
            decoding="async"
            onError={() => setPreviewFailed(true)}
          />
        ) : (
          <Text textStyle="xs" color="fg.muted" p="2" textAlign="center" wordBreak="break-all">
            {photo.name}
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
          aria-label={`Quitar ${photo.name}`}
          onClick={() => onRemove(photo.id)}
        />
      )}
      <Box px="2" py="1" bg="white">
        <Text textStyle="xs" truncate title={photo.name}>
          {photo.name}
        </Text>
        {photo.ghost ? (
          <Badge colorPalette="orange" size="sm">
            Vuelve a elegirla
          </Badge>
        ) : photo.status === "error" ? (
          <Badge colorPalette="red" size="sm" title={photo.error}>
            Error al subir
          </Badge>
        ) : photo.status === "success" ? (
          <Badge colorPalette="green" size="sm">
            Subida
          </Badge>
        ) : photo.status === "uploading" ? (
          <Progress.Root value={photo.percent} size="xs" colorPalette="blue" aria-label={`Subiendo ${photo.name}`}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : (
          <Text textStyle="xs" color="fg.muted">
            {formatBytes(photo.size)}
          </Text>
        )}
      </Box>
    </Box>
  );
});

interface SelectedPhotosGridProps {
  photos: SelectedPhoto[];
  onRemove: (id: string) => void;
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
          <PhotoTile key={photo.id} photo={photo} onRemove={onRemove} locked={locked} />
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
