/** A complete photographer application (spec §3), as the /soy-fotografo form sends it. */
export const sampleApplication = {
  fullName: "Laura Gómez",
  email: "Laura.Gomez@Fotos.test",
  phone: "+57 300 123 4567",
  city: "Medellín",
  experience: "advanced",
  availability: "weekends",
  cameraType: "Mirrorless",
  cameraModel: "Sony A7 IV",
  lensDetails: "",
  portfolioUrl: "https://laura-fotos.example.co",
  message: "Cubro carreras de montaña desde 2019.",
} as const;
