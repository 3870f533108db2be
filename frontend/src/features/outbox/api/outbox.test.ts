import { describe, expect, it } from "vitest";
import { splitLinks } from "./outbox";

describe("splitLinks", () => {
  it("finds the web links of a message's text and keeps everything else as it is", () => {
    expect(splitLinks("Descarga aquí:\nhttps://fotos.example.co/download?token=a-b_c\n\n— Dorsal")).toEqual([
      { text: "Descarga aquí:\n", link: false, at: 0 },
      { text: "https://fotos.example.co/download?token=a-b_c", link: true, at: 15 },
      { text: "\n\n— Dorsal", link: false, at: 60 },
    ]);
    expect(splitLinks("javascript:alert(1) y ftp://x")).toEqual([
      { text: "javascript:alert(1) y ftp://x", link: false, at: 0 },
    ]);
  });
});
