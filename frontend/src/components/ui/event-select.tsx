import { Field, NativeSelect } from "@chakra-ui/react";
import type { EventDto } from "@dorsal/shared";
import { formatEventDate } from "../../lib/format";

interface EventSelectProps {
  events: EventDto[];
  value: number | null;
  onChange: (eventId: number | null) => void;
  label?: string;
  disabled?: boolean;
  invalid?: boolean;
  errorText?: string;
  /** The empty choice's text: a prompt to pick one, or "all events" where the select filters. */
  emptyLabel?: string;
}

export function EventSelect({
  events,
  value,
  onChange,
  label = "Evento",
  disabled,
  invalid,
  errorText,
  emptyLabel = "Selecciona un evento",
}: EventSelectProps) {
  return (
    <Field.Root invalid={invalid} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          value={value ?? ""}
          onChange={(event) => onChange(event.currentTarget.value ? Number(event.currentTarget.value) : null)}
          bg="white"
        >
          <option value="">{emptyLabel}</option>
          {events.map((event) => (
            <option key={event.id} value={event.id}>
              {event.name} · {formatEventDate(event.date)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {errorText && <Field.ErrorText>{errorText}</Field.ErrorText>}
    </Field.Root>
  );
}
