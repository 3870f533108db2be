import {
  Alert,
  Box,
  Button,
  CloseButton,
  Dialog,
  Field,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Portal,
  SimpleGrid,
  Spinner,
  Stack,
  Text,
} from "@chakra-ui/react";
import {
  type AssignmentRole,
  assignmentRoles,
  type EventDto,
  editableRoles,
  messages,
  type UserListItem,
} from "@dorsal/shared";
import { updateUserRequest } from "@dorsal/shared/staff-requests";
import { type FormEvent, useState } from "react";
import { LoadError } from "../../../components/ui/load-error";
import { toaster } from "../../../components/ui/toaster";
import { useSession } from "../../../lib/session";
import { useAssignEvent, useAssignments, useUnassignEvent } from "../api/assignments";
import { useUpdateUser } from "../api/users";
import { EventOptions } from "./event-options";
import { assignmentRoleLabels, roleLabel } from "./role-badge";

/** Name, email and role (spec §5 'Edit user': all required). */
function AccountForm({ user, onSaved }: { user: UserListItem; onSaved: () => void }) {
  const session = useSession();
  const [form, setForm] = useState<Record<"name" | "email" | "role", string>>({
    name: user.name ?? "",
    email: user.email,
    role: user.role,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const updateUser = useUpdateUser();
  // The server refuses it too: an admin who demoted themselves would lose this very screen.
  const ownAccount = session?.id === user.id;

  const update = (field: keyof typeof form) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
    setProblem(null);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = updateUserRequest.safeParse(form);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? messages.allFieldsRequired);
      return;
    }
    updateUser.mutate(
      { userId: user.id, ...parsed.data },
      {
        onSuccess: () => {
          toaster.create({ type: "success", title: "Usuario actualizado", description: parsed.data.name });
          onSaved();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="4">
        <Field.Root required invalid={problem !== null && !form.name.trim()}>
          <Field.Label>Nombre Completo</Field.Label>
          <Input value={form.name} onChange={update("name")} maxLength={200} autoComplete="off" />
        </Field.Root>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <Field.Root required invalid={problem !== null && !form.email.trim()}>
            <Field.Label>Correo electrónico</Field.Label>
            <Input type="email" value={form.email} onChange={update("email")} autoComplete="off" />
          </Field.Root>
          <Field.Root required disabled={ownAccount}>
            <Field.Label>Rol</Field.Label>
            <NativeSelect.Root disabled={ownAccount}>
              <NativeSelect.Field value={form.role} onChange={update("role")}>
                {editableRoles.map((role) => (
                  <option key={role} value={role}>
                    {roleLabel(role)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            {ownAccount && <Field.HelperText>{messages.ownRoleLocked}</Field.HelperText>}
          </Field.Root>
        </SimpleGrid>
        {problem && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{problem}</Alert.Title>
          </Alert.Root>
        )}
        <HStack justify="flex-end">
          <Button type="submit" colorPalette="blue" loading={updateUser.isPending} loadingText="Guardando...">
            Guardar cambios
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

/**
 * A photographer's events (spec §3 photographer_event_assignments): each change is saved at once,
 * and the photographer may upload to exactly these events from their next upload on.
 */
function Assignments({ user, events }: { user: UserListItem; events: EventDto[] }) {
  const assignments = useAssignments(user.id);
  const assign = useAssignEvent();
  const unassign = useUnassignEvent();
  const [choice, setChoice] = useState({ eventId: "", role: "photographer" as AssignmentRole, notes: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);

  // Spec §5: events already assigned are hidden from the choice.
  const assigned = new Set(assignments.data?.map((assignment) => assignment.eventId));
  const available = events.filter((event) => !assigned.has(event.id));

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!choice.eventId) {
      setProblem(messages.selectEventToAssign);
      return;
    }
    if (assigned.has(Number(choice.eventId))) {
      setProblem(messages.eventAlreadyAssigned);
      return;
    }
    setProblem(null);
    assign.mutate(
      { userId: user.id, eventId: Number(choice.eventId), role: choice.role, notes: choice.notes },
      {
        onSuccess: () => {
          const name = events.find((candidate) => candidate.id === Number(choice.eventId))?.name;
          toaster.create({ type: "success", title: "Evento asignado", description: name });
          setChoice({ eventId: "", role: "photographer", notes: "" });
        },
      },
    );
  };

  const remove = (eventId: number, eventName: string) => {
    setRemoving(eventId);
    unassign.mutate(
      { userId: user.id, eventId },
      {
        onSuccess: () => toaster.create({ type: "success", title: "Evento quitado", description: eventName }),
        onSettled: () => setRemoving(null),
      },
    );
  };

  return (
    <Stack as="section" aria-labelledby="assignments-title" gap="3" mt="6" pt="5" borderTopWidth="1px">
      <Heading as="h3" size="md" id="assignments-title">
        Eventos asignados
      </Heading>
      {assignments.isPending ? (
        <HStack gap="2">
          <Spinner size="sm" />
          <Text>Cargando eventos asignados...</Text>
        </HStack>
      ) : assignments.isError ? (
        <LoadError title="Error cargando los eventos asignados" query={assignments} />
      ) : assignments.data.length === 0 ? (
        <Text color="fg.muted">Sin eventos asignados</Text>
      ) : (
        <Stack as="ul" gap="2" aria-label="Eventos asignados">
          {assignments.data.map((assignment) => (
            <HStack
              as="li"
              key={assignment.assignmentId}
              data-testid="assignment"
              listStyleType="none"
              justify="space-between"
              align="flex-start"
              gap="3"
              p="3"
              borderWidth="1px"
              borderRadius="md"
            >
              <Box minW="0">
                <Text fontWeight="medium">{assignment.eventName}</Text>
                <Text textStyle="sm" color="fg.muted">
                  {assignmentRoleLabels[assignment.role]}
                  {assignment.eventLocation && ` · ${assignment.eventLocation}`}
                </Text>
                {assignment.notes && <Text textStyle="sm">{assignment.notes}</Text>}
              </Box>
              <Button
                size="xs"
                variant="ghost"
                colorPalette="red"
                onClick={() => remove(assignment.eventId, assignment.eventName)}
                loading={removing === assignment.eventId}
                aria-label={`Quitar ${assignment.eventName}`}
              >
                Quitar
              </Button>
            </HStack>
          ))}
        </Stack>
      )}
      <form onSubmit={add} noValidate aria-label="Asignar evento">
        <Stack gap="3" p="3" bg="bg.muted" borderRadius="md">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
            <Field.Root invalid={problem !== null}>
              <Field.Label>Evento</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  bg="white"
                  value={choice.eventId}
                  onChange={(event) => {
                    const { value } = event.currentTarget;
                    setChoice((current) => ({ ...current, eventId: value }));
                    setProblem(null);
                  }}
                >
                  <option value="">Selecciona un evento</option>
                  <EventOptions events={available} />
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <Field.Root>
              <Field.Label>Rol en el evento</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  bg="white"
                  value={choice.role}
                  onChange={(event) => {
                    const role = event.currentTarget.value as AssignmentRole;
                    setChoice((current) => ({ ...current, role }));
                  }}
                >
                  {assignmentRoles.map((role) => (
                    <option key={role} value={role}>
                      {assignmentRoleLabels[role]}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          </SimpleGrid>
          <Field.Root>
            <Field.Label>Notas</Field.Label>
            <Input
              bg="white"
              value={choice.notes}
              maxLength={500}
              placeholder="Opcional: zona, horario…"
              onChange={(event) => {
                const { value } = event.currentTarget;
                setChoice((current) => ({ ...current, notes: value }));
              }}
            />
          </Field.Root>
          {problem && (
            <Alert.Root status="error" role="alert" size="sm">
              <Alert.Indicator />
              <Alert.Title>{problem}</Alert.Title>
            </Alert.Root>
          )}
          <HStack justify="flex-end">
            <Button type="submit" size="sm" colorPalette="blue" variant="outline" loading={assign.isPending}>
              Asignar evento
            </Button>
          </HStack>
        </Stack>
      </form>
    </Stack>
  );
}

interface EditUserDialogProps {
  /** Kept while the dialog closes, so its content does not vanish mid-animation. */
  user: UserListItem | null;
  open: boolean;
  events: EventDto[];
  onClose: () => void;
}

/** Spec §2.7's edit dialog: the account's fields, and a photographer's events. */
export function EditUserDialog({ user, open, events, onClose }: EditUserDialogProps) {
  return (
    <Dialog.Root
      open={open && user !== null}
      onOpenChange={(details) => !details.open && onClose()}
      // `mdDown`, not `base`: the full-screen variant would leak its height into the larger size.
      size={{ mdDown: "full", md: "lg" }}
      scrollBehavior="inside"
      // A fresh form each time: edits abandoned with 'Cerrar' must not reappear on the next opening.
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Editar usuario</Dialog.Title>
            </Dialog.Header>
            {user && (
              <Dialog.Body>
                <AccountForm user={user} onSaved={onClose} />
                {user.role === "photographer" && <Assignments user={user} events={events} />}
              </Dialog.Body>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Cerrar" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
