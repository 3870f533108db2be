import { Stack, Switch, Text } from "@chakra-ui/react";
import type { EventConfigDto } from "@dorsal/shared";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { toaster } from "../../../components/ui/toaster";
import { eventConfigQueryOptions, useSetFaceSearch } from "../api/event-config";

/**
 * Issue 23: the organizer's opt-in to selfie search, off by default. Switching it off deletes the
 * faces kept for the event, so it asks first.
 */
export function FaceSearchSetting({ eventId, config: loaded }: { eventId: number; config: EventConfigDto }) {
  // Read again every few seconds while the photos the event already had are being indexed.
  const config =
    useQuery({
      ...eventConfigQueryOptions(eventId),
      refetchInterval: (query) => (query.state.data?.faceIndexing?.finished === false ? 2000 : false),
    }).data ?? loaded;
  const setFaceSearch = useSetFaceSearch(eventId);
  const [confirmOff, setConfirmOff] = useState(false);
  const checked = setFaceSearch.isPending ? setFaceSearch.variables : config.faceSearch;

  const change = (enabled: boolean) =>
    setFaceSearch.mutate(enabled, {
      onSuccess: () => {
        setConfirmOff(false);
        toaster.create({
          type: "success",
          title: enabled ? "Búsqueda por selfie activada" : "Búsqueda por selfie desactivada",
          description: enabled
            ? "Las fotos del evento se podrán buscar con una selfie."
            : "Se borraron los datos faciales de este evento.",
        });
      },
    });

  return (
    <Stack gap="1">
      <Switch.Root
        colorPalette="blue"
        checked={checked}
        disabled={setFaceSearch.isPending}
        onCheckedChange={(details) => (details.checked ? change(true) : setConfirmOff(true))}
      >
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label>Búsqueda por selfie</Switch.Label>
      </Switch.Root>
      <Text textStyle="xs" color="fg.muted">
        Los deportistas pueden encontrar sus fotos con una selfie, con su consentimiento. Se guardan datos faciales de
        las fotos de este evento mientras esté activada.
      </Text>
      {config.faceSearch && config.faceIndexing && (
        <Text textStyle="sm" aria-live="polite">
          {config.faceIndexing.finished
            ? `Listas para la búsqueda las ${config.faceIndexing.total} fotos que ya tenía el evento.`
            : `Preparando las fotos que ya tenía el evento: ${config.faceIndexing.done} de ${config.faceIndexing.total}…`}
        </Text>
      )}
      <ConfirmDialog
        open={confirmOff}
        onOpenChange={setConfirmOff}
        title="¿Desactivar la búsqueda por selfie?"
        confirmLabel="Desactivar y borrar"
        onConfirm={() => change(false)}
        pending={setFaceSearch.isPending}
        pendingText="Borrando…"
      >
        Se borrarán los datos faciales guardados de las fotos de este evento. Las fotos y sus dorsales no cambian.
      </ConfirmDialog>
    </Stack>
  );
}
