import { Stack, Switch, Text } from "@chakra-ui/react";
import type { EventDto } from "@dorsal/shared";
import { toaster } from "../../../components/ui/toaster";
import { useSetAthleteAccess } from "../api/athlete-access";

/** The per-event switch of the events screen; off by default, since it gives photos away. */
export function AthleteAccessSwitch({ event }: { event: EventDto }) {
  const setAccess = useSetAthleteAccess();
  // Shown as requested while the request runs, so the switch does not jump back and forth.
  const checked = setAccess.isPending ? setAccess.variables.requiresAthleteLogin : event.requiresAthleteLogin;

  const change = (requiresAthleteLogin: boolean) =>
    setAccess.mutate(
      { eventId: event.id, requiresAthleteLogin },
      {
        onSuccess: () =>
          toaster.create({
            type: "success",
            title: requiresAthleteLogin ? "Acceso deportistas activado" : "Acceso deportistas desactivado",
            description: event.name,
          }),
      },
    );

  return (
    <Stack gap="0.5">
      <Switch.Root
        size="sm"
        colorPalette="blue"
        checked={checked}
        disabled={setAccess.isPending}
        onCheckedChange={(details) => change(details.checked)}
      >
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label textStyle="sm">Acceso deportistas</Switch.Label>
      </Switch.Root>
      <Text textStyle="xs" color="fg.muted">
        Los deportistas con cuenta ven y descargan gratis todas sus fotos de este evento.
      </Text>
    </Stack>
  );
}
