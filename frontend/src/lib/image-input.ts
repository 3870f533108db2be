import { acceptedImageTypes, imageTypeByExtension } from "@dorsal/shared";

/** Value for `<input accept>`: the types plus the extensions that browsers may not map. */
export const acceptAttribute = [
  ...acceptedImageTypes,
  ...Object.keys(imageTypeByExtension).map((ext) => `.${ext}`),
].join(",");
