import { type AnalyticsDto, formatPrice } from "@dorsal/shared";
import {
  analyticsKpis,
  analyticsRangeLabels,
  countOf,
  formatAnalyticsNumber,
  processingStates,
  recognitionFigures,
} from "@dorsal/shared/analytics-words";

type Doc = PDFKit.PDFDocument;

/** Colombia's clock, whatever the server's: Lambda runs in UTC. */
export const reportTimeZone = "America/Bogota";

const moment = new Intl.DateTimeFormat("es-CO", {
  timeZone: reportTimeZone,
  dateStyle: "long",
  timeStyle: "short",
  hourCycle: "h23",
});
const formatMoment = (iso: string) => moment.format(new Date(iso));

// The screen's palette (Chakra's 500s), so the report reads as the same page.
const colors = {
  text: "#1a202c",
  muted: "#4a5568",
  line: "#e2e8f0",
  track: "#edf2f7",
  kpis: ["#3182ce", "#805ad5", "#38a169", "#dd6b20"],
  states: ["#38a169", "#e53e3e", "#3182ce", "#a0aec0"],
  bibs: "#805ad5",
  revenue: "#dd6b20",
};
const margin = 48;
const footerHeight = 24;

/**
 * The standard PDF fonts (Helvetica) need no font file in the bundle but encode text as
 * WinAnsi: Latin-1 plus a few typographic marks, which covers Spanish (á, ñ, ¿, ¡, —, …). Anything
 * else, as an event name may hold, would print as garbage, so it loses its accent where it has a
 * Latin base letter ('ő' → 'o') and becomes '?' where it has none. Narrow spaces that Intl may put
 * in dates become plain ones.
 */
export function toWinAnsi(text: string): string {
  return [...text.replace(/[\u2000-\u200a\u202f]/g, " ")]
    .map((char) => {
      if (isWinAnsi(char)) return char;
      const base = char.normalize("NFD").replace(/\p{M}/gu, "");
      return [...base].every(isWinAnsi) && base !== "" ? base : "?";
    })
    .join("");
}

const winAnsiExtras = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || winAnsiExtras.has(char);
}

/**
 * 'Estadísticas y Análisis' as an A4 PDF: the screen's figures in the screen's words, its bars
 * drawn as vector shapes. pdfkit is loaded here, on the first report, so the admin function's
 * other routes never pay for loading it.
 */
export async function renderAnalyticsPdf(data: AnalyticsDto, eventName: string | null): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const title = "Estadísticas y Análisis";
  const doc = new PDFDocument({
    size: "A4",
    margin,
    bufferPages: true,
    lang: "es-CO",
    info: {
      Title: toWinAnsi(`${title} · ${eventName ?? "Todos los eventos"}`),
      Author: "Dorsal",
      CreationDate: new Date(data.generatedAt),
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });

  header(doc, data, eventName, title);
  if (data.totalPhotos === 0 && data.salesStats.totalSales === 0) {
    paragraph(doc, "No hay datos para este periodo: aún no hay fotos ni ventas.", { size: 13, bold: true });
  } else {
    kpiCards(doc, data);
    section(doc, "Estado del procesamiento");
    bars(
      doc,
      processingStates(data).map((state, index) => ({
        label: state.label,
        share: state.percent / 100,
        value: `${formatAnalyticsNumber(state.count)} · ${state.percent}%`,
        color: colors.states[index] ?? colors.muted,
      })),
    );
    section(doc, "Reconocimiento de dorsales");
    figures(doc, recognitionFigures(data));
    topDorsals(doc, data);
    if (data.eventId === null) eventComparison(doc, data);
    section(doc, "Información del sistema");
    figures(doc, [
      [
        "Última foto procesada",
        data.system.lastProcessedAt ? formatMoment(data.system.lastProcessedAt) : "Ninguna aún",
      ],
      ["Datos leídos", formatMoment(data.generatedAt)],
    ]);
  }
  footers(doc, title);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

const contentWidth = (doc: Doc) => doc.page.width - 2 * margin;
const bottom = (doc: Doc) => doc.page.height - margin - footerHeight;

/** A new page when `height` more would not fit above the footer. */
function room(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
}

function style(doc: Doc, { size = 10, bold = false, color = colors.text }: TextStyle): Doc {
  return doc
    .font(bold ? "Helvetica-Bold" : "Helvetica")
    .fontSize(size)
    .fillColor(color);
}

/** Text at a point, on one line, cut with '…' where it would pass `width`. */
function line(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  options: TextStyle & { align?: "left" | "right" } = {},
) {
  style(doc, options);
  let fitted = toWinAnsi(text);
  if (doc.widthOfString(fitted) > width) {
    while (fitted.length > 1 && doc.widthOfString(`${fitted}…`) > width) fitted = fitted.slice(0, -1);
    fitted = `${fitted.trimEnd()}…`;
  }
  doc.text(fitted, x, y, { width, lineBreak: false, align: options.align ?? "left" });
}

function paragraph(doc: Doc, text: string, options: TextStyle = {}): void {
  style(doc, options);
  const clean = toWinAnsi(text);
  room(doc, doc.heightOfString(clean, { width: contentWidth(doc) }));
  doc.text(clean, margin, doc.y, { width: contentWidth(doc) });
}

function header(doc: Doc, data: AnalyticsDto, eventName: string | null, title: string): void {
  line(doc, "Dorsal", margin, margin, contentWidth(doc), { size: 10, bold: true, color: colors.muted });
  doc.y = margin + 16;
  paragraph(doc, title, { size: 22, bold: true });
  doc.moveDown(0.3);
  paragraph(doc, `Evento: ${eventName ?? "Todos los eventos"}`, { size: 12, bold: true });
  const range = analyticsRangeLabels[data.range];
  paragraph(doc, `Periodo: ${range.title}, del ${formatMoment(data.from)} al ${formatMoment(data.generatedAt)}`, {
    size: 10,
  });
  paragraph(doc, `Generado el ${formatMoment(data.generatedAt)}. Horas de Colombia.`, {
    size: 10,
    color: colors.muted,
  });
  doc.moveDown(0.3);
  paragraph(
    doc,
    "Las fotos, los dorsales y el estado del procesamiento son totales de toda la historia; el periodo " +
      "filtra la velocidad de procesamiento y las ventas.",
    { size: 9, color: colors.muted },
  );
  doc.moveDown(1);
}

/** A thin rule across the page at `y`: under a section's title and between a table's rows. */
function hairline(doc: Doc, y: number): void {
  doc
    .moveTo(margin, y)
    .lineTo(margin + contentWidth(doc), y)
    .lineWidth(0.5)
    .strokeColor(colors.line)
    .stroke();
}

function section(doc: Doc, title: string): void {
  doc.moveDown(1);
  room(doc, 60);
  const y = doc.y;
  line(doc, title, margin, y, contentWidth(doc), { size: 13, bold: true });
  hairline(doc, y + 18);
  doc.y = y + 26;
}

/** The four headline figures as the screen's cards: two by two, each with its colour on top. */
function kpiCards(doc: Doc, data: AnalyticsDto): void {
  const gap = 12;
  const width = (contentWidth(doc) - gap) / 2;
  const height = 72;
  room(doc, 2 * height + gap);
  const top = doc.y;
  analyticsKpis(data, data.range).forEach((kpi, index) => {
    const x = margin + (index % 2) * (width + gap);
    const y = top + Math.floor(index / 2) * (height + gap);
    doc.roundedRect(x, y, width, height, 4).lineWidth(0.75).strokeColor(colors.line).stroke();
    doc.rect(x, y, width, 4).fill(colors.kpis[index] ?? colors.muted);
    line(doc, kpi.label, x + 12, y + 14, width - 24, { size: 9, color: colors.muted });
    line(doc, kpi.value ?? "", x + 12, y + 28, width - 24, { size: 18, bold: true });
    line(doc, kpi.caption ?? "", x + 12, y + 53, width - 24, { size: 9, color: colors.muted });
  });
  doc.y = top + 2 * height + gap;
}

interface Bar {
  label: string;
  /** The bar's length as a share of the track, 0 to 1. */
  share: number;
  value: string;
  color: string;
}

/** Horizontal bars: label, track with its filled part, and the figure at the end. */
function bars(doc: Doc, rows: Bar[]): void {
  const labelWidth = 150;
  const valueWidth = 110;
  const trackX = margin + labelWidth + 8;
  const trackWidth = contentWidth(doc) - labelWidth - valueWidth - 16;
  const rowHeight = 20;
  for (const row of rows) {
    room(doc, rowHeight);
    const y = doc.y;
    line(doc, row.label, margin, y + 2, labelWidth, { size: 10 });
    doc.roundedRect(trackX, y + 2, trackWidth, 9, 3).fill(colors.track);
    const filled = Math.max(0, Math.min(1, row.share)) * trackWidth;
    if (filled > 0) doc.roundedRect(trackX, y + 2, Math.max(filled, 3), 9, 3).fill(row.color);
    line(doc, row.value, trackX + trackWidth + 8, y + 2, valueWidth, { size: 10, align: "right" });
    doc.y = y + rowHeight;
  }
}

/** Label and value of each figure, in two columns. */
function figures(doc: Doc, items: [string, string][]): void {
  for (const [label, value] of items) {
    room(doc, 18);
    const y = doc.y;
    line(doc, label, margin, y, 170, { size: 10, color: colors.muted });
    line(doc, value, margin + 180, y, contentWidth(doc) - 180, { size: 10, bold: true });
    doc.y = y + 18;
  }
}

function topDorsals(doc: Doc, data: AnalyticsDto): void {
  section(doc, "Dorsales con más fotos");
  if (data.topDorsals.length === 0) {
    paragraph(doc, "Aún no hay dorsales detectados.", { color: colors.muted });
    return;
  }
  const names = new Map(data.events.map((event) => [event.eventId, event.name]));
  const most = Math.max(...data.topDorsals.map((top) => top.count));
  bars(
    doc,
    data.topDorsals.map((top, index) => ({
      // A bib is a runner of one event: across events its number alone would be ambiguous.
      label: `${index + 1}. #${top.dorsal}${data.eventId === null ? ` · ${names.get(top.eventId) ?? `Evento ${top.eventId}`}` : ""}`,
      share: top.count / most,
      value: countOf(top.count, "foto", "fotos"),
      color: colors.bibs,
    })),
  );
}

const comparisonColumns = [
  { title: "Evento", width: 0.34 },
  { title: "Fotos", width: 0.11 },
  { title: "Procesadas", width: 0.13 },
  { title: "Dorsales únicos", width: 0.15 },
  { title: "Ventas", width: 0.09 },
  { title: "Ingresos", width: 0.18 },
];

function eventComparison(doc: Doc, data: AnalyticsDto): void {
  section(doc, "Comparación por evento");
  if (data.events.length === 0) {
    paragraph(doc, "Aún no hay eventos.", { color: colors.muted });
    return;
  }
  const widths = comparisonColumns.map((column) => column.width * contentWidth(doc));
  const row = (cells: string[], bold: boolean) => {
    room(doc, 18);
    const y = doc.y;
    let x = margin;
    cells.forEach((cell, index) => {
      const width = widths[index] ?? 0;
      line(doc, cell, x + 2, y, width - 4, { size: 9, bold, align: index === 0 ? "left" : "right" });
      x += width;
    });
    hairline(doc, y + 13);
    doc.y = y + 18;
  };
  row(
    comparisonColumns.map((column) => column.title),
    true,
  );
  for (const event of data.events) {
    row(
      [
        event.name,
        formatAnalyticsNumber(event.totalPhotos),
        formatAnalyticsNumber(event.processedPhotos),
        formatAnalyticsNumber(event.uniqueDorsals),
        formatAnalyticsNumber(event.salesInRange),
        formatPrice(event.revenueInRange),
      ],
      false,
    );
  }

  section(doc, "Ingresos por evento");
  const most = Math.max(...data.events.map((event) => event.revenueInRange));
  if (most === 0) {
    paragraph(doc, `No hubo ventas ${analyticsRangeLabels[data.range].period}.`, { color: colors.muted });
    return;
  }
  bars(
    doc,
    data.events.map((event) => ({
      label: event.name,
      share: event.revenueInRange / most,
      value: formatPrice(event.revenueInRange),
      color: colors.revenue,
    })),
  );
}

/** Every page's footer, written once all pages exist so each can say how many there are. */
function footers(doc: Doc, title: string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    // Below the bottom margin pdfkit would start a new page for the text; the footer belongs there.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    line(
      doc,
      `Dorsal · ${title} · Página ${index - start + 1} de ${count}`,
      margin,
      doc.page.height - margin,
      contentWidth(doc),
      { size: 8, color: colors.muted, align: "right" },
    );
    doc.page.margins.bottom = bottomMargin;
  }
}
