/** The admin every test runtime is started with. */
export const testAdmin = { email: "admin@dorsal.test", password: "clave-de-prueba-123" } as const;
