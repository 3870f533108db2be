import { Badge } from "@chakra-ui/react";
import type { AssignmentRole, Role } from "@dorsal/shared";

/** Spec §2.7: admin 'Admin', photographer 'Fotógrafo', user 'Usuario'; athletes (our addition) 'Deportista'. */
export function roleLabel(role: Role): string {
  if (role === "admin") return "Admin";
  if (role === "photographer") return "Fotógrafo";
  if (role === "athlete") return "Deportista";
  return "Usuario";
}

export function RoleBadge({ role }: { role: Role }) {
  return (
    <Badge colorPalette={role === "admin" ? "red" : role === "photographer" ? "blue" : "gray"} variant="subtle">
      {roleLabel(role)}
    </Badge>
  );
}

/** A photographer's part at an event (spec §3 photographer_event_assignments.role). */
export const assignmentRoleLabels: Record<AssignmentRole, string> = {
  photographer: "Fotógrafo",
  lead_photographer: "Fotógrafo principal",
  assistant: "Asistente",
};
