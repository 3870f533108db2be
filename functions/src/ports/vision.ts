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
  confidence: number;
  box: BoundingBox;
}

export interface VisionEngineInfo {
  engine: string;
  version: string;
}

/** Mirrors DetectText's WordFilter: what the engine need not return at all. */
export interface TextFilters {
  /** 0..100 */
  minConfidence?: number;
}

export interface TextDetector {
  readonly info: VisionEngineInfo;
  detectText(image: Buffer, filters?: TextFilters): Promise<TextDetection[]>;
}

export interface FaceDetector {
  readonly info: VisionEngineInfo;
  detectFaces(image: Buffer): Promise<FaceDetection[]>;
}

export interface Vision {
  text: TextDetector;
  faces: FaceDetector;
  close(): Promise<void>;
}
