import { Alert, Badge, Box, Button, Checkbox, chakra, Heading, List, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { type FaceSearchPhoto, faceSearchMessages, selfieContentTypes } from "@dorsal/shared/face-search";
import { useId, useRef, useState } from "react";
import { ThumbnailImage } from "../../../components/ui/thumbnail";
import { foundSummary } from "../api/face-matches";
import { useFaceSearch, useForgetFace } from "../api/face-search";

/**
 * 'Buscar con una selfie' (issue 23), loaded when the athlete opens it: first who processes the
 * selfie, what for, that it is not kept and the athlete's rights, with a consent box that starts
 * unticked; only then the camera or file picker. Photos found go to `onFound`, which shows them
 * beside the bib's photos when a bib was searched.
 */
export function SelfieSearch({
  eventId,
  eventName,
  bibSearched,
  onFound,
}: {
  eventId: number;
  eventName: string;
  /** The athlete's bib was searched: the photos found join its results, where they are bought. */
  bibSearched: boolean;
  onFound: (photos: FaceSearchPhoto[]) => void;
}) {
  const [consent, setConsent] = useState(false);
  const [found, setFound] = useState<FaceSearchPhoto[] | null>(null);
  const search = useFaceSearch(eventId);
  const forget = useForgetFace(eventId);
  const picker = useRef<HTMLInputElement>(null);
  const forgetPicker = useRef<HTMLInputElement>(null);
  const noticeId = useId();

  const send = (file: File | undefined) => {
    if (!file) return;
    search.mutate(file, {
      onSuccess: ({ photos }) => {
        setFound(photos);
        onFound(photos);
      },
    });
  };
  const sendForget = (file: File | undefined) => {
    if (file) forget.mutate(file);
  };

  return (
    <Stack as="section" aria-labelledby="selfie-title" gap="4" borderWidth="1px" borderRadius="lg" bg="white" p="4">
      <Heading as="h2" size="md" id="selfie-title">
        Buscar con una selfie
      </Heading>
      <Stack gap="2" textStyle="sm" id={noticeId}>
        <Text>
          Compara tu cara con las fotos de <strong>{eventName || "este evento"}</strong> para encontrar las fotos en las
          que sales, también las que tu dorsal no encontró.
        </Text>
        <List.Root ps="5" gap="1">
          <List.Item>
            <strong>Quién trata tus datos:</strong> Dorsal, la plataforma de fotos de la carrera, por encargo del
            organizador del evento.
          </List.Item>
          <List.Item>
            <strong>Para qué:</strong> solo para encontrar tus fotos de este evento.
          </List.Item>
          <List.Item>
            <strong>Tu selfie no se guarda:</strong> se analiza y se descarta en la misma búsqueda.
          </List.Item>
          <List.Item>
            <strong>Tus derechos:</strong> puedes consultar, corregir y borrar tus datos escribiendo al organizador del
            evento, y quitar tú mismo, con tu selfie, tus fotos de los resultados por selfie de este evento (abajo).
          </List.Item>
        </List.Root>
        <Text color="fg.muted">Si prefieres no usar tu cara, busca con tu número de dorsal.</Text>
      </Stack>
      <Checkbox.Root
        checked={consent}
        onCheckedChange={(details) => setConsent(details.checked === true)}
        colorPalette="blue"
        alignItems="flex-start"
      >
        <Checkbox.HiddenInput aria-describedby={noticeId} />
        <Checkbox.Control mt="0.5" />
        <Checkbox.Label>Acepto que se analice mi selfie para buscar mis fotos de este evento</Checkbox.Label>
      </Checkbox.Root>
      <chakra.input
        ref={picker}
        type="file"
        accept={selfieContentTypes.join(",")}
        capture="user"
        display="none"
        aria-hidden="true"
        tabIndex={-1}
        data-testid="selfie-input"
        onChange={(event) => {
          send(event.currentTarget.files?.[0]);
          event.currentTarget.value = "";
        }}
      />
      <Button
        colorPalette="blue"
        alignSelf={{ base: "stretch", sm: "start" }}
        disabled={!consent}
        loading={search.isPending}
        loadingText="Buscando tus fotos…"
        onClick={() => picker.current?.click()}
      >
        Tomar o elegir una selfie
      </Button>
      {search.isError && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Title>{search.error.message}</Alert.Title>
        </Alert.Root>
      )}
      {found && found.length === 0 && (
        <Alert.Root status="info" role="status">
          <Alert.Indicator />
          <Alert.Title>{faceSearchMessages.noMatch}</Alert.Title>
        </Alert.Root>
      )}
      {found && found.length > 0 && (
        <Stack gap="2" role="status">
          <Text fontWeight="semibold">{foundSummary(found)}</Text>
          {bibSearched ? (
            <Text textStyle="sm">Están abajo, junto a las de tu dorsal: agrégalas al carrito como cualquier foto.</Text>
          ) : (
            <>
              <SimpleGrid as="ul" columns={{ base: 3, sm: 4, md: 6 }} gap="2">
                {found.map((photo) => (
                  <Box
                    as="li"
                    key={photo.id}
                    listStyleType="none"
                    aspectRatio={1}
                    bg="gray.100"
                    borderRadius="md"
                    position="relative"
                  >
                    <ThumbnailImage url={photo.thumbnailUrl} />
                    {!photo.certain && (
                      <Badge position="absolute" top="1" left="1" colorPalette="orange" variant="subtle" size="sm">
                        ¿Eres tú?
                      </Badge>
                    )}
                  </Box>
                ))}
              </SimpleGrid>
              <Text textStyle="sm">
                Escribe tu número de dorsal y pulsa «Buscar fotos» para verlas junto a las de tu dorsal y comprarlas.
              </Text>
            </>
          )}
        </Stack>
      )}
      <Box borderTopWidth="1px" pt="3">
        <chakra.input
          ref={forgetPicker}
          type="file"
          accept={selfieContentTypes.join(",")}
          display="none"
          aria-hidden="true"
          tabIndex={-1}
          onChange={(event) => {
            sendForget(event.currentTarget.files?.[0]);
            event.currentTarget.value = "";
          }}
        />
        <Button
          variant="ghost"
          size="sm"
          disabled={!consent}
          loading={forget.isPending}
          onClick={() => forgetPicker.current?.click()}
        >
          Borrar mis fotos de la búsqueda por selfie
        </Button>
        {forget.isSuccess && (
          <Text textStyle="sm" role="status">
            {forget.data.removedPhotos === 1
              ? "Quitamos 1 foto de los resultados por selfie de este evento."
              : `Quitamos ${forget.data.removedPhotos} fotos de los resultados por selfie de este evento.`}
          </Text>
        )}
        {forget.isError && (
          <Text textStyle="sm" color="red.600" role="alert">
            {forget.error.message}
          </Text>
        )}
      </Box>
    </Stack>
  );
}
