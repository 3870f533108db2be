import { Button, Group, Input } from "@chakra-ui/react";
import { type FormEvent, useRef, useState } from "react";

interface AddBibFormProps {
  /** Whose bib this is, for the input's accessible name on a page with many cards. */
  photoName: string;
  pending: boolean;
  onAdd: (dorsalNumber: string) => Promise<unknown>;
}

/** Digits only, as on the search screen; Enter submits and the field stays ready for the next one. */
export function AddBibForm({ photoName, pending, onAdd }: AddBibFormProps) {
  const [value, setValue] = useState("");
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!value || pending) {
      input.current?.focus();
      return;
    }
    try {
      await onAdd(value);
      setValue("");
    } catch {
      // The caller reports the error; the number stays so it can be corrected.
    }
    input.current?.focus();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Group attached width="full">
        <Input
          ref={input}
          size="sm"
          bg="white"
          value={value}
          onChange={(event) => setValue(event.currentTarget.value.replace(/\D/g, ""))}
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={10}
          autoComplete="off"
          placeholder="Dorsal"
          aria-label={`Agregar dorsal a ${photoName}`}
        />
        <Button type="submit" size="sm" variant="outline" loading={pending} flexShrink={0}>
          Agregar
        </Button>
      </Group>
    </form>
  );
}
