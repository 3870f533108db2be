import type { BoundingBox } from "../../../ports/vision";

/**
 * Two looks at one photo find most faces twice with slightly different boxes; above this overlap
 * (intersection over union) two boxes are one face. Faces in a crowd rarely overlap this much.
 */
const SAME_FACE_IOU = 0.3;

export function sameFace(a: BoundingBox, b: BoundingBox): boolean {
  const width = Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left));
  const height = Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
  const inter = width * height;
  return inter / (a.width * a.height + b.width * b.height - inter) > SAME_FACE_IOU;
}
