import { limits, messages } from "@dorsal/shared";
import busboy from "busboy";
import { invalid, tooLarge } from "../app/errors";
import { isPrototypeKey } from "./prototype-keys";

export interface MultipartForm {
  fields: Record<string, string>;
  files: { field: string; filename: string; data: Buffer }[];
}

/** Parses a multipart body already held in memory (API Gateway delivers it whole, base64-encoded). */
export function parseMultipart(body: Buffer, contentType: string | undefined): Promise<MultipartForm> {
  if (!contentType?.toLowerCase().startsWith("multipart/form-data")) {
    return Promise.reject(invalid("Se esperaba un formulario multipart/form-data"));
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fileSize: limits.photoMaxBytes, files: 200, fields: 20, fieldSize: 64 * 1024 },
    });
  } catch {
    // busboy's constructor throws when the content type names no boundary.
    return Promise.reject(invalid(messages.formWithoutBoundary));
  }
  return new Promise((resolve, reject) => {
    const form: MultipartForm = { fields: {}, files: [] };
    let failure: Error | undefined;
    parser.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      // A body cut inside a file fails that file's stream too: unheard, the error would end the process.
      stream.on("error", () => reject(invalid(messages.malformedForm)));
      stream.on("limit", () => {
        failure = tooLarge(messages.fileTooLarge);
      });
      stream.on("close", () =>
        form.files.push({ field, filename: info.filename ?? "foto", data: Buffer.concat(chunks) }),
      );
    });
    parser.on("field", (name, value) => {
      if (isPrototypeKey(name)) failure = invalid(messages.prototypeKey);
      else form.fields[name] = value;
    });
    parser.on("filesLimit", () => {
      failure = invalid("Demasiados archivos en una sola petición");
    });
    parser.on("error", () => reject(invalid(messages.malformedForm)));
    parser.on("close", () => (failure ? reject(failure) : resolve(form)));
    parser.end(body);
  });
}
