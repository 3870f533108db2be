import { Button } from "@chakra-ui/react";
import type { EventDto } from "@dorsal/shared";
import { toaster } from "../../../components/ui/toaster";
import { useSetFreePhotos } from "../api/free-photos";

/**
 * Spec §2.4/§4: 'Liberar Fotos Gratis' turns free photos on, 'Proteger Fotos' off; the button offers
 * whichever changes the event's current state.
 */
export function FreePhotosButton({ event }: { event: EventDto }) {
  const setFreePhotos = useSetFreePhotos();
  const enable = !event.freePhotosEnabled;

  const toggle = () =>
    setFreePhotos.mutate(
      { eventId: event.id, enabled: enable },
      {
        onSuccess: () =>
          toaster.create(
            enable
              ? { type: "success", title: "Fotos liberadas", description: `${event.name}: descarga gratuita activada` }
              : { type: "success", title: "Fotos protegidas", description: `${event.name}: fotos de pago otra vez` },
          ),
        onError: () =>
          toaster.create({
            type: "error",
            title: "Error",
            description: enable ? "No se pudieron liberar las fotos" : "No se pudieron proteger las fotos",
          }),
      },
    );

  return (
    <Button
      size="xs"
      variant="outline"
      colorPalette={enable ? "green" : "orange"}
      onClick={toggle}
      loading={setFreePhotos.isPending}
      aria-label={`${enable ? "Liberar Fotos Gratis" : "Proteger Fotos"} de ${event.name}`}
    >
      {enable ? "Liberar Fotos Gratis" : "Proteger Fotos"}
    </Button>
  );
}
