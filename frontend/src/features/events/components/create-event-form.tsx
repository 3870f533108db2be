import { Button, Card, Field, Heading, Input, NativeSelect, SimpleGrid, Stack } from "@chakra-ui/react";
import { type CreateEventRequest, eventStatuses } from "@dorsal/shared";
import { createEventRequest } from "@dorsal/shared/staff-requests";
import { type FormEvent, useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { ApiError } from "../../../lib/api-fetch";
import { firstErrorByField } from "../../../lib/field-errors";
import { useCreateEvent } from "../api/create-event";

type FieldName = keyof CreateEventRequest;
type FieldErrors = Partial<Record<FieldName, string>>;

const statusLabels: Record<(typeof eventStatuses)[number], string> = {
  active: "Activo",
  processing: "Procesando",
  completed: "Procesado",
};

/**
 * The schema's own texts are used where spec §5 fixes them (the date); its generic texts for
 * the other fields are English, so those fields get Spanish messages here.
 */
const fallbackMessages: Partial<Record<FieldName, string>> = {
  name: "Ingresa el nombre del evento (máximo 200 caracteres)",
  location: "La ubicación admite máximo 200 caracteres",
  expectedParticipants: "Ingresa un número entero entre 0 y 1.000.000",
  status: "Selecciona un estado válido",
};

/** The date's own message says what is wrong with it; the other fields' say what to type. */
const wordingFor = (field: FieldName, message: string) =>
  field === "date" ? message : (fallbackMessages[field] ?? message);

const emptyForm = { name: "", date: "", location: "", expectedParticipants: "", status: "active" } as const;

/** `focusName`: the header's 'Nuevo Evento' lands here (`/events?new=1`) ready to type the name. */
export function CreateEventForm({ focusName = false }: { focusName?: boolean }) {
  const [form, setForm] = useState<Record<keyof typeof emptyForm, string>>({ ...emptyForm });
  const [errors, setErrors] = useState<FieldErrors>({});
  const createEvent = useCreateEvent();

  const update = (field: FieldName) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = createEventRequest.safeParse({
      ...form,
      expectedParticipants: form.expectedParticipants === "" ? undefined : form.expectedParticipants,
    });
    if (!parsed.success) {
      setErrors(firstErrorByField(parsed.error.issues, wordingFor));
      return;
    }
    createEvent.mutate(parsed.data, {
      onSuccess: (created) => {
        setForm({ ...emptyForm });
        toaster.create({ type: "success", title: "Evento creado", description: created.name });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details) {
          setErrors(firstErrorByField(error.details, wordingFor));
        }
      },
    });
  };

  return (
    <Card.Root as="section" aria-labelledby="create-event-title">
      <Card.Header>
        <Heading as="h2" size="lg" id="create-event-title">
          Nuevo Evento
        </Heading>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <Field.Root required invalid={Boolean(errors.name)}>
              <Field.Label>
                Nombre del evento <Field.RequiredIndicator />
              </Field.Label>
              <Input
                value={form.name}
                onChange={update("name")}
                maxLength={200}
                autoComplete="off"
                autoFocus={focusName}
              />
              <Field.ErrorText>{errors.name}</Field.ErrorText>
            </Field.Root>
            <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
              <Field.Root required invalid={Boolean(errors.date)}>
                <Field.Label>
                  Fecha <Field.RequiredIndicator />
                </Field.Label>
                <Input type="date" value={form.date} onChange={update("date")} />
                <Field.ErrorText>{errors.date}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={Boolean(errors.expectedParticipants)}>
                <Field.Label>Participantes esperados</Field.Label>
                <Input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  value={form.expectedParticipants}
                  onChange={update("expectedParticipants")}
                />
                <Field.ErrorText>{errors.expectedParticipants}</Field.ErrorText>
              </Field.Root>
            </SimpleGrid>
            <Field.Root invalid={Boolean(errors.location)}>
              <Field.Label>Ubicación</Field.Label>
              <Input value={form.location} onChange={update("location")} maxLength={200} />
              <Field.ErrorText>{errors.location}</Field.ErrorText>
            </Field.Root>
            <Field.Root invalid={Boolean(errors.status)}>
              <Field.Label>Estado</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field value={form.status} onChange={update("status")}>
                  {eventStatuses.map((status) => (
                    <option key={status} value={status}>
                      {statusLabels[status]}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Field.ErrorText>{errors.status}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" colorPalette="blue" loading={createEvent.isPending} loadingText="Creando...">
              Crear Evento
            </Button>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
