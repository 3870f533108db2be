/** Spec §9: COP amounts in es-CO without decimals, shown as '$ 1.234.567 COP'. */
const copNumber = new Intl.NumberFormat("es-CO", { maximumFractionDigits: 0 });

export function formatCop(amount: number): string {
  return `$ ${copNumber.format(amount)} COP`;
}

export function formatCount(value: number): string {
  return copNumber.format(value);
}

const eventDate = new Intl.DateTimeFormat("es-CO", { day: "numeric", month: "long", year: "numeric" });

/**
 * Event dates are calendar days ('2025-03-09'). Parsing them with `new Date(iso)` would read
 * midnight UTC and show the previous day in Colombia, so the parts are read as a local date.
 */
/** A count with its noun, singular or plural as Spanish needs: "1 foto", "1.200 fotos". */
export function formatCounted(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

export function formatEventDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const [, year, month, day] = match;
  return eventDate.format(new Date(Number(year), Number(month) - 1, Number(day)));
}

const dateTime = new Intl.DateTimeFormat("es-CO", { dateStyle: "short", timeStyle: "short" });

/** Spec §2.7: moments (creation, last login) in the Spanish short form with hour and minute. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

const megabytes = new Intl.NumberFormat("es-CO", { maximumFractionDigits: 1 });

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${megabytes.format(bytes / 1024)} KB`;
  return `${megabytes.format(bytes / (1024 * 1024))} MB`;
}
