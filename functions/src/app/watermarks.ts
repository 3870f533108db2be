/**
 * The marks laid over the public copies of a photo, as SVG for sharp to composite. The letters are
 * drawn as strokes from a tiny built-in alphabet rather than with a font, so the marks look the same
 * everywhere and still appear on a machine (or Lambda image) with no fonts installed.
 */

export type WatermarkKind = "watermarked" | "gratis";

/** Strokes of each letter on a 4 × 6 grid (y down); only the letters the marks use. */
const glyphs: Record<string, string> = {
  A: "M0 6L2 0L4 6M0.67 4L3.33 4",
  D: "M0 0L0 6L2.5 6L4 4.5L4 1.5L2.5 0Z",
  E: "M4 0L0 0L0 6L4 6M0 3L3 3",
  G: "M4 1L3 0L1 0L0 1L0 5L1 6L3 6L4 5L4 3L2.2 3",
  I: "M2 0L2 6M1 0L3 0M1 6L3 6",
  L: "M0 0L0 6L4 6",
  M: "M0 6L0 0L2 3L4 0L4 6",
  O: "M1 0L3 0L4 1L4 5L3 6L1 6L0 5L0 1Z",
  R: "M0 6L0 0L3 0L4 1L4 2L3 3L0 3M2 3L4 6",
  S: "M4 1L3 0L1 0L0 1L0 2L1 3L3 3L4 4L4 5L3 6L1 6L0 5",
  T: "M0 0L4 0M2 0L2 6",
  U: "M0 0L0 5L1 6L3 6L4 5L4 0",
  "·": "M1.6 3L2.4 3",
  " ": "",
};
const advance = 6;
const glyphHeight = 6;

/** A line of capital letters as one stroked path, in glyph units (6 units tall), starting at 0,0. */
export function glyphPath(text: string): { d: string; width: number } {
  const parts: string[] = [];
  [...text].forEach((char, index) => {
    const strokes = glyphs[char];
    if (strokes === undefined) throw new Error(`The watermark alphabet has no "${char}"`);
    const dx = index * advance;
    parts.push(
      strokes.replace(/([ML])([\d.]+) ([\d.]+)/g, (_, command: string, x: string, y: string) => {
        return `${command}${+(Number(x) + dx).toFixed(2)} ${y}`;
      }),
    );
  });
  return { d: parts.join(""), width: text.length * advance - (advance - 4) };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Text `capHeight` px tall at x, y (top left): a dark halo under a light stroke, legible on any background. */
function strokedText(text: string, x: number, y: number, capHeight: number, style: TextStyle): string {
  const { d } = glyphPath(text);
  const scale = round(capHeight / glyphHeight);
  const stroke = (color: string, width: number, opacity: number) =>
    `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-opacity="${opacity}" stroke-linecap="round" stroke-linejoin="round"/>`;
  return (
    `<g transform="translate(${round(x)} ${round(y)}) scale(${scale})">` +
    (style.halo ? stroke(style.halo, style.weight * 2.2, style.haloOpacity) : "") +
    stroke(style.color, style.weight, style.opacity) +
    "</g>"
  );
}
interface TextStyle {
  color: string;
  opacity: number;
  weight: number;
  halo?: string;
  haloOpacity: number;
}
const textWidth = (text: string, capHeight: number) => (glyphPath(text).width * capHeight) / glyphHeight;

/**
 * A tiled diagonal pattern of `text` over the whole image, in staggered rows, plus thin rules
 * between them: no strip of the photo is free of it, so it cannot be cropped away.
 */
function tiledText(text: string, unit: number, style: TextStyle, spacing: number): string {
  const capHeight = 26 * unit;
  const tileWidth = round(textWidth(text, capHeight) + spacing * unit);
  const rowHeight = round(capHeight * 4.2);
  const tileHeight = rowHeight * 2;
  const inset = (spacing * unit) / 2;
  const rowOne = strokedText(text, inset, rowHeight / 2 - capHeight / 2, capHeight, style);
  // The second row is shifted half a tile; drawn twice so the part clipped on one tile shows on the next.
  const rowTwoY = rowHeight * 1.5 - capHeight / 2;
  const rowTwo =
    strokedText(text, inset + tileWidth / 2, rowTwoY, capHeight, style) +
    strokedText(text, inset - tileWidth / 2, rowTwoY, capHeight, style);
  const rule = (y: number) =>
    `<path d="M0 ${round(y)}H${tileWidth}" stroke="${style.color}" stroke-opacity="${round(style.opacity * 0.6)}" stroke-width="${round(Math.max(1, unit * 1.5))}"/>`;
  return (
    `<defs><pattern id="mark" patternUnits="userSpaceOnUse" width="${tileWidth}" height="${tileHeight}" patternTransform="rotate(-30)">` +
    `${rowOne}${rowTwo}${rule(0)}${rule(rowHeight)}</pattern></defs>` +
    `<rect width="100%" height="100%" fill="url(#mark)"/>`
  );
}

/**
 * A solid label at the foot of the image's centred square. Galleries show thumbnails cropped to
 * that square (object-fit: cover), so a label in the image's corner was cut off there; inside the
 * square it survives any such crop. Where one line would have to shrink, the words split at the
 * '·' onto two lines, and shrink only if even those do not fit.
 */
function squareLabel(text: string, width: number, height: number, unit: number, background: string): string {
  const side = Math.min(width, height);
  const margin = Math.max(2, 24 * unit);
  const preferredCap = Math.max(6, 30 * unit);
  const room = side - margin * 2;
  // Box width = widest line + 2 × padding (padding is 0.7 × the cap height), per unit of cap height.
  const widthPerCap = (lines: string[]) => Math.max(...lines.map((line) => textWidth(line, 1))) + 1.4;
  const oneLine = [text];
  const lines = room / widthPerCap(oneLine) >= preferredCap ? oneLine : text.split(" · ");
  const capHeight = Math.min(preferredCap, room / widthPerCap(lines));
  const padding = capHeight * 0.7;
  const lineGap = capHeight * 0.6;
  const boxWidth = capHeight * widthPerCap(lines);
  const boxHeight = lines.length * capHeight + (lines.length - 1) * lineGap + padding * 2;
  const x = (width - boxWidth) / 2;
  const y = (height + side) / 2 - margin - boxHeight;
  const style = { color: "#ffffff", opacity: 1, weight: 0.9, haloOpacity: 0 };
  return (
    `<rect x="${round(x)}" y="${round(y)}" width="${round(boxWidth)}" height="${round(boxHeight)}" rx="${round(padding / 2)}" fill="${background}" fill-opacity="0.78"/>` +
    lines
      .map((line, index) =>
        strokedText(
          line,
          (width - textWidth(line, capHeight)) / 2,
          y + padding + index * (capHeight + lineGap),
          capHeight,
          style,
        ),
      )
      .join("")
  );
}

export const watermarkTexts = { watermarked: "DORSAL · MUESTRA", gratis: "GRATIS · DEMO" } as const;

/**
 * The overlay for an image of `width` × `height` px. Sizes scale with the image, so a thumbnail
 * carries the same mark as the preview. `watermarked` (paid events) is dense and hard to crop out;
 * `gratis` (free events) is a lighter label over a photo that is given away anyway.
 */
export function watermarkSvg(kind: WatermarkKind, width: number, height: number): string {
  const unit = Math.max(width, height) / 1280;
  const body =
    kind === "watermarked"
      ? tiledText(
          watermarkTexts.watermarked,
          unit,
          { color: "#ffffff", opacity: 0.42, weight: 0.8, halo: "#000000", haloOpacity: 0.22 },
          90,
        ) + squareLabel(watermarkTexts.watermarked, width, height, unit, "#111827")
      : tiledText(
          watermarkTexts.gratis,
          unit,
          { color: "#ffffff", opacity: 0.22, weight: 0.7, halo: "#000000", haloOpacity: 0.1 },
          420,
        ) + squareLabel(watermarkTexts.gratis, width, height, unit, "#15803d");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}
