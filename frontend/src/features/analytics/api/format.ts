/** Spec §9: numbers in analytics use es-ES. */
const number = new Intl.NumberFormat("es-ES", { maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat("es-ES", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatNumber(value: number): string {
  return number.format(value);
}

/** Spec §9: times under 1000 ms in ms, otherwise seconds with one decimal. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${oneDecimal.format(ms / 1000)} s`;
}

/** A share of a total as a whole percent (0 when there is no total). */
export function percentOf(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 100);
}
