/**
 * Mirrors Rekognition's DetectText / DetectFaces results so that one set of bib rules serves both
 * the cloud and the local engine. Boxes are normalised to 0..1 of the image's width and height.
 */
export interface BoundingBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TextDetection {
  type: "LINE" | "WORD";
  text: string;
  /** 0..100, as Rekognition reports it. */
  confidence: number;
  box: BoundingBox;
  id: number;
  /** For WORDs: the LINE they belong to. */
  parentId?: number;
}

export interface FaceDetection {
  /** 0..100, as Rekognition reports it. */
  confidence: number;
  box: BoundingBox;
}

/**
 * A box at least this sure is a face: counted in the event's figures, kept for selfie search, looked
 * for in a selfie. A detector may return weaker boxes too, as hints of where runners stand for the bib
 * rules and the closer look: about half of the local detector's boxes between 45 and 60 are hands and
 * backs of heads, harmless as a hint and wrong as a face.
 */
export const FACE_CONFIDENCE = 60;

export function confidentFaces<Face extends Pick<FaceDetection, "confidence">>(faces: readonly Face[]): Face[] {
  return faces.filter((face) => face.confidence >= FACE_CONFIDENCE);
}

export interface VisionEngineInfo {
  engine: string;
  version: string;
}

/** Mirrors DetectText's WordFilter: what the engine need not return at all. */
export interface TextFilters {
  /** 0..100 */
  minConfidence?: number;
  /**
   * Where runners are (below detected faces): small text there deserves the photo's full resolution.
   * An engine that reads the whole frame at full resolution (Rekognition) has no use for it.
   */
  closerLook?: BoundingBox[];
}

export interface TextDetector {
  readonly info: VisionEngineInfo;
  detectText(image: Buffer, filters?: TextFilters): Promise<TextDetection[]>;
}

export interface FaceDetector {
  readonly info: VisionEngineInfo;
  detectFaces(image: Buffer): Promise<FaceDetection[]>;
}

/** Everything the pipeline reads from one photo. */
export interface PhotoReading {
  text: TextDetection[];
  faces: FaceDetection[];
  /** Time spent on each, in ms; decode is 0 where each engine takes the encoded bytes itself. */
  ms: { decode: number; text: number; faces: number };
}

export interface Vision {
  text: TextDetector;
  faces: FaceDetector;
  /**
   * Text and faces of one photo, the photo decoded once for both; text filtered as `filters` says.
   * Faces come first, so an engine may look closer where runners are.
   */
  readPhoto(image: Buffer, filters?: Pick<TextFilters, "minConfidence">): Promise<PhotoReading>;
  close(): Promise<void>;
}
