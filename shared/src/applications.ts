import { z } from "zod";
import { idParam } from "./api";
import type { MailOutcome } from "./mail";

/** Photographer applications (spec §3 photographer_applications, §2.7 'Soy fotógrafo'). */

export const experienceLevels = ["beginner", "intermediate", "advanced", "professional"] as const;
export const availabilityOptions = ["weekends", "weekdays", "flexible"] as const;
export const cameraTypes = ["DSLR", "Mirrorless", "Professional", "Other"] as const;
export const applicationStatuses = ["pending", "approved", "rejected"] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

export const applicationLimits = {
  fullName: 120,
  email: 200,
  city: 100,
  cameraModel: 100,
  lensDetails: 300,
  portfolioUrl: 500,
  previousEvents: 1000,
  message: 2000,
  adminNotes: 1000,
} as const;

/**
 * Spanish texts of the application rules and outcomes; kept with the schema, which is their only
 * user besides the use cases of this feature.
 */
export const applicationMessages = {
  fullName: "Ingresa tu nombre completo",
  email: "Ingresa un correo electrónico válido",
  phone: "Ingresa un teléfono válido (7 a 15 dígitos)",
  city: "Ingresa tu ciudad",
  experience: "Selecciona tu nivel de experiencia",
  availability: "Selecciona tu disponibilidad",
  cameraType: "Selecciona un tipo de cámara válido",
  portfolioUrl: "Ingresa un enlace válido que empiece por http:// o https://",
  tooLong: (max: number) => `Máximo ${max} caracteres`,
  submitFailed: "Error al enviar aplicación",
  notFound: "Aplicación no encontrada",
  alreadyReviewed: "Esta aplicación ya fue revisada",
  emailHasAccount: (email: string) =>
    `Ya existe una cuenta con el email ${email}. Asígnale el evento desde Gestión de Usuarios.`,
} as const;

const requiredText = (max: number, message: string) =>
  z.string({ error: message }).trim().min(2, message).max(max, applicationMessages.tooLong(max));

/** Optional free text: blank is the same as absent and is stored as null. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, applicationMessages.tooLong(max))
    .nullish()
    .transform((value) => value || null);

const isWebUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
  } catch {
    return false;
  }
};

/** POST /api/photographer-applications: the public form. Status and review fields are the server's. */
export const photographerApplicationRequest = z.object({
  fullName: requiredText(applicationLimits.fullName, applicationMessages.fullName),
  email: z
    .string({ error: applicationMessages.email })
    .trim()
    .toLowerCase()
    .max(applicationLimits.email, applicationMessages.email)
    .email(applicationMessages.email),
  phone: z
    .string({ error: applicationMessages.phone })
    .trim()
    .regex(/^\+?[\d\s().-]+$/, applicationMessages.phone)
    .refine((phone) => {
      const digits = phone.replace(/\D/g, "").length;
      return digits >= 7 && digits <= 15;
    }, applicationMessages.phone),
  city: requiredText(applicationLimits.city, applicationMessages.city),
  experience: z.enum(experienceLevels, { error: applicationMessages.experience }),
  availability: z.enum(availabilityOptions, { error: applicationMessages.availability }),
  cameraType: z
    .union([z.enum(cameraTypes), z.literal("")], { error: applicationMessages.cameraType })
    .nullish()
    .transform((value) => value || null),
  cameraModel: optionalText(applicationLimits.cameraModel),
  lensDetails: optionalText(applicationLimits.lensDetails),
  portfolioUrl: optionalText(applicationLimits.portfolioUrl).refine(
    (url) => url === null || isWebUrl(url),
    applicationMessages.portfolioUrl,
  ),
  previousEvents: optionalText(applicationLimits.previousEvents),
  message: optionalText(applicationLimits.message),
});
export type PhotographerApplicationRequest = z.input<typeof photographerApplicationRequest>;
export type PhotographerApplicationInput = z.output<typeof photographerApplicationRequest>;

export interface PhotographerApplicationDto extends PhotographerApplicationInput {
  id: string;
  status: ApplicationStatus;
  adminNotes: string | null;
  createdAt: string;
  reviewedAt: string | null;
  /** The reviewing admin's user id, and their email for display. */
  reviewedBy: string | null;
  reviewedByEmail: string | null;
  /** Set on approval: the event the new photographer uploads to, and their account. */
  assignedEventId: number | null;
  photographerUserId: string | null;
}

export interface PhotographerApplicationCreated {
  success: true;
  id: string;
  status: "pending";
}

/** GET /api/admin/photographer-applications: newest first, optionally one status. */
export const applicationListQuery = z.object({
  status: z.enum(applicationStatuses).optional(),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type ApplicationListQuery = z.input<typeof applicationListQuery>;
export type ApplicationListInput = z.output<typeof applicationListQuery>;

export interface PhotographerApplicationPage {
  applications: PhotographerApplicationDto[];
  /** Pass back as `cursor` for the next page; null on the last. */
  cursor: string | null;
}

export const approveApplicationRequest = z.object({ eventId: idParam });
export type ApproveApplicationRequest = z.input<typeof approveApplicationRequest>;

export const rejectApplicationRequest = z.object({ adminNotes: optionalText(applicationLimits.adminNotes) });
export type RejectApplicationRequest = z.input<typeof rejectApplicationRequest>;

/**
 * The answer to an approval: the new account's password is in here and nowhere else (only its
 * hash is stored), so the admin must hand it over from this one response.
 */
export interface ApprovedApplicationResponse {
  application: PhotographerApplicationDto;
  credentials: {
    userId: string;
    name: string;
    email: string;
    password: string;
    assignedEventId: number;
    eventName: string;
  };
  /** The email telling the applicant (without the password, which the admin hands over). */
  mail: MailOutcome;
}

/** The answer to a rejection: the application as it now is, and the email telling the applicant. */
export interface RejectedApplicationResponse extends PhotographerApplicationDto {
  mail: MailOutcome;
}
