import { Badge } from "@chakra-ui/react";

/** Spec §4: known statuses get Spanish labels; anything else is shown as the server sent it. */
const statusBadges: Record<string, { label: string; palette: string }> = {
  active: { label: "Activo", palette: "green" },
  processing: { label: "Procesando", palette: "yellow" },
  completed: { label: "Procesado", palette: "blue" },
};

export function EventStatusBadge({ status }: { status: string }) {
  const badge = statusBadges[status];
  return <Badge colorPalette={badge?.palette ?? "gray"}>{badge?.label ?? status}</Badge>;
}
