import type { EventDto } from "@dorsal/shared";
import { formatEventDate } from "../../../lib/format";

/** Spec §2.7: the event dropdowns of this screen show each event as name plus date, as EventSelect does. */
export function EventOptions({ events }: { events: EventDto[] }) {
  return events.map((event) => (
    <option key={event.id} value={event.id}>
      {event.name} · {formatEventDate(event.date)}
    </option>
  ));
}
