import { Alert, Button, Card, Field, Heading, HStack, Input, NativeSelect, SimpleGrid, Stack } from "@chakra-ui/react";
import { type EventDto, messages } from "@dorsal/shared";
import { createUserRequest } from "@dorsal/shared/staff-requests";
import { type FormEvent, useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { useCreateUser } from "../api/users";
import { EventOptions } from "./event-options";

type FieldName = "name" | "email" | "password" | "eventId";

const emptyForm: Record<FieldName, string> = { name: "", email: "", password: "", eventId: "" };

/**
 * Spec §5, in its order: the three text fields, then the photographer's event, then the password
 * length. The email only has to look like one (the spec leaves that to the browser's email type).
 */
function validate(form: Record<FieldName, string>): { fields: FieldName[]; message: string } | null {
  const blank = (["name", "email", "password"] as const).filter((field) => form[field].trim() === "");
  if (blank.length > 0) return { fields: blank, message: messages.allFieldsRequired };
  if (!form.eventId) return { fields: ["eventId"], message: messages.photographerNeedsEvent };
  if (form.password.length < 6) return { fields: ["password"], message: messages.passwordTooShort };
  const parsed = createUserRequest.safeParse({ ...form, role: "photographer", assignedEventId: form.eventId });
  if (!parsed.success) return { fields: ["email"], message: messages.emailInvalid };
  return null;
}

/** 'Crear Usuario Fotógrafo' (spec §2.7): success closes and resets the form, failure leaves it open. */
export function CreateUserForm({ events, onClose }: { events: EventDto[]; onClose: () => void }) {
  const [form, setForm] = useState(emptyForm);
  const [problem, setProblem] = useState<{ fields: FieldName[]; message: string } | null>(null);
  const createUser = useCreateUser();

  const update = (field: FieldName) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
    setProblem(null);
  };
  const invalid = (field: FieldName) => problem?.fields.includes(field) ?? false;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(form);
    setProblem(found);
    if (found) return;
    createUser.mutate(
      {
        name: form.name.trim(),
        email: form.email.trim(),
        password: form.password,
        role: "photographer",
        assignedEventId: Number(form.eventId),
      },
      {
        onSuccess: () => {
          toaster.create({
            type: "success",
            title: "Usuario creado",
            description: "El usuario fotógrafo ha sido creado exitosamente.",
          });
          onClose();
        },
      },
    );
  };

  return (
    <Card.Root as="section" aria-labelledby="create-user-title" mb="6">
      <Card.Header>
        <Heading as="h2" size="lg" id="create-user-title">
          Crear Usuario Fotógrafo
        </Heading>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              <Field.Root required invalid={invalid("name")}>
                <Field.Label>Nombre Completo</Field.Label>
                <Input value={form.name} onChange={update("name")} maxLength={200} autoComplete="off" />
              </Field.Root>
              <Field.Root required invalid={invalid("email")}>
                <Field.Label>Correo electrónico</Field.Label>
                <Input type="email" value={form.email} onChange={update("email")} autoComplete="off" />
              </Field.Root>
              <Field.Root required invalid={invalid("password")}>
                <Field.Label>Contraseña</Field.Label>
                <Input
                  type="password"
                  value={form.password}
                  onChange={update("password")}
                  autoComplete="new-password"
                />
                <Field.HelperText>Mínimo 6 caracteres</Field.HelperText>
              </Field.Root>
              <Field.Root required invalid={invalid("eventId")}>
                <Field.Label>Evento Asignado</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field value={form.eventId} onChange={update("eventId")}>
                    <option value="">Selecciona un evento</option>
                    <EventOptions events={events} />
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                <Field.HelperText>El fotógrafo solo podrá subir fotos a este evento específico</Field.HelperText>
              </Field.Root>
            </SimpleGrid>
            <Alert.Root status="info" size="sm">
              <Alert.Indicator />
              <Alert.Title>
                Los usuarios fotógrafos solo tienen acceso al módulo de carga de fotos: no ven estadísticas,
                configuración ni la gestión de eventos.
              </Alert.Title>
            </Alert.Root>
            {problem && (
              <Alert.Root status="error" role="alert">
                <Alert.Indicator />
                <Alert.Title>{problem.message}</Alert.Title>
              </Alert.Root>
            )}
            <HStack gap="3" justify="flex-end" wrap="wrap">
              <Button variant="outline" onClick={onClose} disabled={createUser.isPending}>
                Cancelar
              </Button>
              <Button type="submit" colorPalette="blue" loading={createUser.isPending} loadingText="Creando...">
                Crear Usuario
              </Button>
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
