import { Box, type BoxProps, Image, Text } from "@chakra-ui/react";
import { useState } from "react";

/** A photo's thumbnail filling its box, lazy-loaded, with the spec's text when it cannot load. */
export function ThumbnailImage({ url }: { url: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) {
    return (
      <Text textStyle="xs" color="fg.muted" p="2" textAlign="center">
        {url ? "Error al cargar" : "Vista previa no disponible"}
      </Text>
    );
  }
  return (
    <Image
      src={url}
      alt=""
      width="full"
      height="full"
      objectFit="cover"
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

/** A square, grey-backed tile holding a thumbnail centred (cart and code photo lists). */
export function ThumbnailTile({ url, ...box }: BoxProps & { url: string | null }) {
  return (
    <Box
      aspectRatio={1}
      bg="gray.100"
      borderRadius="md"
      overflow="hidden"
      display="flex"
      alignItems="center"
      justifyContent="center"
      {...box}
    >
      <ThumbnailImage url={url} />
    </Box>
  );
}
