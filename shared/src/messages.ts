/** Spanish texts the server returns (spec §5, §8); the browser shows them as they are. */
export const messages = {
  invalidCredentials: "Credenciales inválidas",
  unauthorized: "Debes iniciar sesión para continuar",
  forbidden: "No tienes permiso para realizar esta acción",
  notFound: "Recurso no encontrado",
  invalidRequest: "Datos inválidos",
  internalError: "Error interno del servidor",
  eventNotFound: "Evento no encontrado",
  dateRequired: "Date is required",
  selectPhoto: "Selecciona al menos una foto para subir",
  selectEvent: "Selecciona un evento para subir las fotos",
  incompleteSearch: "Datos incompletos",
  fileTooLarge: "Error 413: Archivos demasiado grandes. Intenta subir fotos más pequeñas o reduce la cantidad.",
  unsupportedImage: "Tipo de archivo no aceptado",
  uploadFailed: "Error al subir fotos",
} as const;
