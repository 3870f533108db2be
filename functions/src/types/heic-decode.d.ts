/** heic-decode ships no type declarations; this is the part of its API we use. */
declare module "heic-decode" {
  interface HeicImageHandle {
    width: number;
    height: number;
    decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
  }
  interface HeicDecode {
    all(input: { buffer: Uint8Array }): Promise<HeicImageHandle[] & { dispose(): void }>;
  }
  const heicDecode: HeicDecode;
  export default heicDecode;
}
