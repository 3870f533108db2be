import { Button, Field, Group, Input } from "@chakra-ui/react";
import { type FormEvent, useRef, useState } from "react";

interface AddBibFormProps {
  /** Whose bib this is, for the input's accessible name on a page with many cards. */
  photoName: string;
  pending: boolean;
  onAdd: (dorsalNumber: string) => Promise<unknown>;
}

/**
 * Enter submits and the field stays ready for the next one. What is typed is sent as typed: the
 * server judges it by the event's bib settings, and a refusal shows under the field with the text
 * kept, so nothing is silently cut or changed into another runner's number.
 */
export function AddBibForm({ photoName, pending, onAdd }: AddBibFormProps) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!value.trim() || pending) {
      input.current?.focus();
      return;
    }
    try {
      await onAdd(value);
      setValue("");
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
    input.current?.focus();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Field.Root invalid={Boolean(error)}>
        <Group attached width="full">
          <Input
            ref={input}
            size="sm"
            bg="white"
            value={value}
            onChange={(change) => {
              setValue(change.currentTarget.value);
              setError(undefined);
            }}
            autoCapitalize="characters"
            autoComplete="off"
            placeholder="Dorsal"
            aria-label={`Agregar dorsal a ${photoName}`}
          />
          <Button type="submit" size="sm" variant="outline" loading={pending} flexShrink={0}>
            Agregar
          </Button>
        </Group>
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    </form>
  );
}
