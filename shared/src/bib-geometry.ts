/** Box geometry behind the bib rules; boxes are normalised 0..1 of the upright photo. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * How far sideways of a face its wearer's bib can be, in face widths: runners lean, turn and pin
 * bibs off-centre or on the shorts, but a bib two face widths away belongs to someone else.
 */
const WEARER_REACH = 2;
/** A bib starts at most this many face heights below the chin (on the shorts of a runner in stride). */
const WEARER_DROP = 7;
/** A bib may start this much of a face height above the chin: the head leans forward over the chest. */
const WEARER_RISE = 0.5;

/** Whether text in `text` could be printed on the torso or shorts of the person with face `face`. */
export function wearerOf(face: Box, text: Box): boolean {
  const chin = face.top + face.height;
  const sideways = Math.abs(text.left + text.width / 2 - (face.left + face.width / 2));
  return (
    sideways <= WEARER_REACH * face.width + text.width / 2 &&
    text.top >= chin - WEARER_RISE * face.height &&
    text.top <= chin + WEARER_DROP * face.height
  );
}

/**
 * Where the bib of the person with face `face` can be (the boxes `wearerOf` accepts, with room for a
 * bib as wide as two faces), clipped to the photo: the region an engine reads closely for that runner.
 */
export function wearerRegion(face: Box): Box {
  const centre = face.left + face.width / 2;
  const chin = face.top + face.height;
  const halfWidth = (WEARER_REACH + 2) * face.width;
  const left = Math.max(0, centre - halfWidth);
  const top = Math.max(0, chin - WEARER_RISE * face.height);
  const right = Math.min(1, centre + halfWidth);
  // The text's top may be WEARER_DROP face heights down; a bib's digits are at most about a face high.
  const bottom = Math.min(1, chin + (WEARER_DROP + 1) * face.height);
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

/**
 * Whether `first` and `second` stand side by side in one line of print, `first` on the left: level
 * (their heights overlap by half the smaller one), about as tall (a letter printed smaller than the
 * number still is, down to half), and at most two characters apart, `charWidth` being one character
 * of the number (boxes are fractions of the photo's width and height, so widths are compared with
 * widths and heights with heights).
 */
export function sideBySide(first: Box, second: Box, charWidth: number): boolean {
  const gap = second.left - (first.left + first.width);
  const overlap = Math.min(first.top + first.height, second.top + second.height) - Math.max(first.top, second.top);
  const ratio = first.height / Math.max(1e-9, second.height);
  return (
    gap >= -0.5 * charWidth &&
    gap <= 2 * charWidth &&
    overlap >= 0.5 * Math.min(first.height, second.height) &&
    ratio >= 0.5 &&
    ratio <= 2
  );
}
