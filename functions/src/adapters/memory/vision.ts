import type { FaceDetection, PhotoReading, TextDetection, Vision } from "../../ports/vision";

/**
 * The Vision port answering what the test says each photo shows (keyed by the photo's bytes as
 * text), for use-case tests of what the pipeline does with a reading, not of the reading itself.
 */
export function createScriptedVision(
  readings: (image: Buffer) => { text?: TextDetection[]; faces?: FaceDetection[] },
): Vision {
  const info = { engine: "guion", version: "1" };
  const read = (image: Buffer): PhotoReading => {
    const reading = readings(image);
    return { text: reading.text ?? [], faces: reading.faces ?? [], ms: { decode: 0, text: 0, faces: 0 } };
  };
  return {
    text: { info, detectText: async (image) => read(image).text },
    faces: { info, detectFaces: async (image) => read(image).faces },
    readPhoto: async (image) => read(image),
    close: async () => {},
  };
}
