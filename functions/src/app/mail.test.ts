import { describe, expect, it } from "vitest";
import { sesFromAddress } from "../adapters/aws/ses-mailer";
import { composeMail } from "./mail";

describe("an email's text and HTML", () => {
  it("keeps paragraphs apart, links clickable, and whatever a buyer typed inert", () => {
    const message = composeMail("ana@example.co", {
      subject: "Tus fotos",
      paragraphs: ['Hola <b>Ana</b> & "amigos":', "https://fotos.example.co/download?token=a-b_c", "Línea 1\nLínea 2"],
    });

    expect(message.text).toBe(
      'Hola <b>Ana</b> & "amigos":\n\nhttps://fotos.example.co/download?token=a-b_c\n\nLínea 1\nLínea 2',
    );
    expect(message.html).toBe(
      [
        "<p>Hola &#60;b&#62;Ana&#60;/b&#62; &#38; &#34;amigos&#34;:</p>",
        '<p><a href="https://fotos.example.co/download?token=a-b_c">https://fotos.example.co/download?token=a-b_c</a></p>',
        "<p>Línea 1<br>Línea 2</p>",
      ].join("\n"),
    );
  });
});

describe("the sender SES is given", () => {
  it("is the address alone, a quoted ASCII name, or a non-ASCII name as a MIME encoded-word", () => {
    expect(sesFromAddress("fotos@example.co")).toBe("fotos@example.co");
    expect(sesFromAddress("Dorsal <fotos@example.co>")).toBe('"Dorsal" <fotos@example.co>');
    expect(sesFromAddress("Fotos Medellín <fotos@example.co>")).toBe(
      `=?UTF-8?B?${Buffer.from("Fotos Medellín").toString("base64")}?= <fotos@example.co>`,
    );
    expect(() => sesFromAddress("nadie")).toThrow(/MAIL_FROM/);
  });
});
