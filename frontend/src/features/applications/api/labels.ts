import type {
  ApplicationStatus,
  availabilityOptions,
  cameraTypes,
  experienceLevels,
} from "@dorsal/shared/applications";

/** Spanish names of the application's stored values. */
export const experienceLabels: Record<(typeof experienceLevels)[number], string> = {
  beginner: "Principiante",
  intermediate: "Intermedio",
  advanced: "Avanzado",
  professional: "Profesional",
};

export const availabilityLabels: Record<(typeof availabilityOptions)[number], string> = {
  weekends: "Fines de semana",
  weekdays: "Entre semana",
  flexible: "Flexible",
};

export const cameraTypeLabels: Record<(typeof cameraTypes)[number], string> = {
  DSLR: "Réflex (DSLR)",
  Mirrorless: "Sin espejo (Mirrorless)",
  Professional: "Profesional",
  Other: "Otra",
};

export const statusLabels: Record<ApplicationStatus, { label: string; plural: string; palette: string }> = {
  pending: { label: "Pendiente", plural: "Pendientes", palette: "yellow" },
  approved: { label: "Aprobada", plural: "Aprobadas", palette: "green" },
  rejected: { label: "Rechazada", plural: "Rechazadas", palette: "red" },
};
