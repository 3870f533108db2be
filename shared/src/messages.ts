/** Spanish texts the server returns (spec §5, §8); the browser shows them as they are. */
export const messages = {
  invalidCredentials: "Credenciales inválidas",
  preflightRunning: "Ya hay una verificación previa en curso: espera a que termine",
  preflightUnavailable: "No se pudo iniciar la verificación previa. Intenta de nuevo en unos minutos",
  preflightRunNotFound: "Verificación no encontrada",
  unauthorized: "Debes iniciar sesión para continuar",
  forbidden: "No tienes permiso para realizar esta acción",
  /** One address, or everyone on a busy route, past the API's limits (the WAF, the API's throttles, the local limiter). */
  tooManyRequests: "Demasiadas solicitudes en este momento. Espera un minuto e inténtalo de nuevo.",
  /** On AWS, a request sent to the API's own endpoint instead of through the site (CloudFront). */
  directApiRefused: "Usa la dirección del sitio: la API no atiende peticiones directas",
  /** Spec §2.6's admin mode of the search: the clean photos, without buying. */
  adminSearchOnly: "Solo los administradores ven las fotos sin marca de agua",
  notFound: "Recurso no encontrado",
  invalidRequest: "Datos inválidos",
  internalError: "Error interno del servidor",
  eventNotFound: "Evento no encontrado",
  adminPasswordRequired: "Ingresa la contraseña de administrador para confirmar la eliminación",
  eventDeleteRefused: "No se pudo eliminar el evento. Verifica la contraseña de administrador",
  /** The spec words this one in English ('Date is required'); every answer of ours is Spanish. */
  dateRequired: "La fecha es obligatoria",
  selectPhoto: "Selecciona al menos una foto para subir",
  selectEvent: "Selecciona un evento para subir las fotos",
  noSessionToResume: "No hay sesión activa para reanudar",
  selectEventToResume: "Selecciona un evento para reanudar la subida",
  incompleteSearch: "Datos incompletos",
  fileTooLarge: "Error 413: Archivos demasiado grandes. Intenta subir fotos más pequeñas o reduce la cantidad.",
  unsupportedImage: "Tipo de archivo no aceptado",
  uploadFailed: "Error al subir fotos",
  zipInvalidName: "Por favor selecciona un archivo ZIP válido",
  zipTooLarge: "El archivo es demasiado grande. Máximo permitido: 2GB",
  zipProcessingError: "Error al procesar el archivo ZIP",
  zipNotFound: "Lote ZIP no encontrado",
  zipNoImages: "El archivo ZIP no contiene imágenes válidas",
  passwordTooShort: "La contraseña debe tener al menos 6 caracteres",
  passwordTooLong: "La contraseña debe tener como máximo 200 caracteres",
  emailTaken: "Ya existe un usuario con ese email",
  adminNotDeletable: "No se puede eliminar un administrador",
  userNotFound: "Usuario no encontrado",
  allFieldsRequired: "Todos los campos son obligatorios",
  emailInvalid: "El formato del correo electrónico no es válido",
  photographerNeedsEvent: "Debe asignar un evento específico al fotógrafo",
  selectEventToAssign: "Debe seleccionar un evento",
  eventAlreadyAssigned: "Este evento ya está asignado al fotógrafo",
  assignmentNotFound: "Ese evento no está asignado al fotógrafo",
  onlyPhotographersAssigned: "Solo los fotógrafos pueden tener eventos asignados",
  ownRoleLocked: "No puedes cambiar tu propio rol",
  userChangedMeanwhile: "El usuario cambió mientras lo editabas. Vuelve a intentarlo.",
  uploadNeverArrived: "La subida no se completó",
  uploadTooManyFiles: "Sube como máximo 5.000 fotos a la vez",
  uploadNotFound: "Subida no encontrada",
  uploadOtherEvent: "La foto no pertenece al evento de esta subida",
  onlyDuplicatesRemovable: "Solo se pueden quitar fotos repetidas: esta foto ya no lo es",
  rerunNotStarted: "No se pudo reiniciar el procesamiento",
  changePasswordFailed: "No se pudo cambiar la contraseña. Verifique la contraseña actual.",
  requestTooLarge: "La petición es demasiado grande",
  uploadsBusy: "El servidor está recibiendo demasiados archivos a la vez. Intenta de nuevo en unos segundos.",
  serverBusy: "El servidor está ocupado en este momento. Intenta de nuevo en unos segundos.",
  invalidCursor: "Cursor de paginación inválido",
  malformedPath: "La dirección solicitada está mal codificada",
  requestTimedOut: "El servidor tardó demasiado en responder. Vuelve a intentarlo en unos momentos.",
  formWithoutBoundary: "Formulario inválido: el tipo de contenido no indica el separador de sus partes",
  malformedForm: "Formulario inválido: el contenido está incompleto o mal formado",
  /** A body or form field named like an object's prototype (`__proto__`, `constructor`, `prototype`). */
  prototypeKey: "La petición contiene un campo no permitido",
} as const;

/** Why an entry of a ZIP was not imported (returned with the batch status). */
export const zipSkipReasons = {
  unsafePath: "Ruta no permitida: sale de la carpeta del ZIP",
  nestedArchive: "Archivo comprimido dentro del ZIP: no se procesa",
  notImage: "No es una imagen reconocida",
  tooLarge: "La foto supera el máximo de 50 MB",
  tooManyPhotos: "El ZIP supera el máximo de 5000 fotos",
  encrypted: "Archivo cifrado: no se puede leer",
  unreadable: "No se pudo leer el archivo dentro del ZIP",
} as const;

/**
 * Why the pipeline gave up on a photo, shown on the 'Errores' screen. Image libraries speak
 * English; what they say goes to the logs, and the photo gets one of these.
 */
export const photoFailureReasons = {
  unreadable: "La imagen está dañada o incompleta y no se pudo leer",
  unreadableHeic: "La imagen HEIC está dañada o incompleta y no se pudo leer",
  timedOut: "El procesamiento de la foto tardó demasiado y se detuvo",
  unexpected: "No se pudo procesar la foto por un error interno",
  unknown: "Error desconocido",
} as const;

/** A photo whose header declares more pixels than any camera makes (a decompression bomb, say). */
export function tooManyPixelsReason(width: number, height: number, maxMegapixels: number): string {
  return `La imagen es demasiado grande (${width}×${height} píxeles): el máximo son ${maxMegapixels} megapíxeles`;
}

/** The ZIP size message for a configured maximum (the spec's text at the default 2 GB). */
export function zipTooLargeMessage(maxBytes: number): string {
  const [unit, size] = maxBytes >= 1024 ** 3 ? ["GB", 1024 ** 3] : ["MB", 1024 ** 2];
  return messages.zipTooLarge.replace("2GB", `${Math.round((maxBytes / size) * 10) / 10}${unit}`);
}

/** A sign-in refused while the email is locked out after repeated failures. */
export function tooManyLoginAttemptsMessage(minutes: number): string {
  return `Demasiados intentos fallidos. Intenta de nuevo en ${minutes} ${minutes === 1 ? "minuto" : "minutos"}.`;
}
