import {
  Box,
  Button,
  Card,
  Field,
  Heading,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from "@chakra-ui/react";
import {
  applicationLimits,
  availabilityOptions,
  cameraTypes,
  experienceLevels,
  type PhotographerApplicationRequest,
  photographerApplicationRequest,
} from "@dorsal/shared/applications";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link as RouterLink } from "react-router";
import { ApiError } from "../../../lib/api-fetch";
import { firstErrorByField } from "../../../lib/field-errors";
import { useSubmitApplication } from "../api/applications";
import { availabilityLabels, cameraTypeLabels, experienceLabels } from "../api/labels";

type FieldName = keyof PhotographerApplicationRequest;
type Form = Record<FieldName, string>;
type FieldErrors = Partial<Record<FieldName, string>>;

const emptyForm: Form = {
  fullName: "",
  email: "",
  phone: "",
  city: "",
  experience: "",
  availability: "",
  cameraType: "",
  cameraModel: "",
  lensDetails: "",
  portfolioUrl: "",
  previousEvents: "",
  message: "",
};

function FormField(props: {
  label: string;
  error: string | undefined;
  required?: boolean;
  helper?: string;
  children: ReactNode;
}) {
  return (
    <Field.Root required={props.required} invalid={Boolean(props.error)}>
      <Field.Label>
        {props.label} {props.required && <Field.RequiredIndicator />}
      </Field.Label>
      {props.children}
      {props.helper && !props.error && <Field.HelperText>{props.helper}</Field.HelperText>}
      <Field.ErrorText>{props.error}</Field.ErrorText>
    </Field.Root>
  );
}

function ThankYou({ email }: { email: string }) {
  return (
    <Card.Root maxW="2xl" mx="auto" role="status">
      <Card.Body>
        <Stack gap="4" textAlign="center" align="center" py="6">
          <Heading as="h1" size="2xl">
            ¡Gracias por tu aplicación!
          </Heading>
          <Text>
            Revisaremos tu aplicación en 2-3 días hábiles y te escribiremos a <strong>{email}</strong> con la respuesta.
          </Text>
          <Text color="fg.muted">
            Si te aprobamos, recibirás tu acceso de fotógrafo para subir las fotos del evento asignado.
          </Text>
          <Button asChild variant="outline">
            <RouterLink to="/">Volver al inicio</RouterLink>
          </Button>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** 'Soy fotógrafo' (spec §2.7): the public application form, then a thank-you screen. */
export function ApplicationFormPage() {
  const [form, setForm] = useState<Form>(emptyForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submittedEmail, setSubmittedEmail] = useState<string | null>(null);
  const submit = useSubmitApplication();

  if (submittedEmail) return <ThankYou email={submittedEmail} />;

  const update = (field: FieldName) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = photographerApplicationRequest.safeParse(form);
    if (!parsed.success) {
      setErrors(firstErrorByField<FieldName>(parsed.error.issues));
      return;
    }
    submit.mutate(parsed.data, {
      onSuccess: () => setSubmittedEmail(parsed.data.email),
      onError: (error) => {
        if (error instanceof ApiError && error.details) setErrors(firstErrorByField<FieldName>(error.details));
      },
    });
  };

  const text = (field: FieldName, props: { type?: string; autoComplete?: string; maxLength?: number } = {}) => (
    <Input
      value={form[field]}
      onChange={update(field)}
      type={props.type ?? "text"}
      autoComplete={props.autoComplete ?? "off"}
      maxLength={props.maxLength}
      bg="white"
    />
  );

  const select = (field: FieldName, options: readonly string[], labels: Record<string, string>, empty: string) => (
    <NativeSelect.Root>
      <NativeSelect.Field value={form[field]} onChange={update(field)} bg="white">
        <option value="">{empty}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );

  const area = (field: FieldName, maxLength: number) => (
    <Textarea value={form[field]} onChange={update(field)} maxLength={maxLength} rows={3} bg="white" />
  );

  return (
    <Box maxW="3xl" mx="auto">
      <Stack gap="2" mb="6">
        <Heading as="h1" size={{ base: "xl", md: "2xl" }}>
          Soy fotógrafo
        </Heading>
        <Text color="fg.muted">
          Cuéntanos de ti y de tu equipo. Revisamos cada aplicación y, si te aprobamos, te damos acceso para subir las
          fotos de un evento.
        </Text>
      </Stack>
      <Card.Root>
        <Card.Body>
          <form onSubmit={send} noValidate aria-label="Aplicación de fotógrafo">
            <Stack gap="6">
              <Stack as="fieldset" gap="4">
                <Heading as="legend" size="md" mb="3">
                  Tus datos
                </Heading>
                <FormField label="Nombre completo" required error={errors.fullName}>
                  {text("fullName", { autoComplete: "name", maxLength: applicationLimits.fullName })}
                </FormField>
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                  <FormField label="Correo electrónico" required error={errors.email}>
                    {text("email", { type: "email", autoComplete: "email", maxLength: applicationLimits.email })}
                  </FormField>
                  <FormField
                    label="Teléfono"
                    required
                    error={errors.phone}
                    helper="Con indicativo si no es de Colombia"
                  >
                    {text("phone", { type: "tel", autoComplete: "tel", maxLength: 25 })}
                  </FormField>
                </SimpleGrid>
                <FormField label="Ciudad" required error={errors.city}>
                  {text("city", { autoComplete: "address-level2", maxLength: applicationLimits.city })}
                </FormField>
              </Stack>

              <Stack as="fieldset" gap="4">
                <Heading as="legend" size="md" mb="3">
                  Experiencia y disponibilidad
                </Heading>
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                  <FormField label="Experiencia" required error={errors.experience}>
                    {select("experience", experienceLevels, experienceLabels, "Selecciona tu nivel")}
                  </FormField>
                  <FormField label="Disponibilidad" required error={errors.availability}>
                    {select("availability", availabilityOptions, availabilityLabels, "Selecciona tu disponibilidad")}
                  </FormField>
                </SimpleGrid>
                <FormField label="Eventos anteriores" error={errors.previousEvents}>
                  {area("previousEvents", applicationLimits.previousEvents)}
                </FormField>
                <FormField label="Portafolio" error={errors.portfolioUrl} helper="Enlace a tu sitio o red social">
                  {text("portfolioUrl", {
                    type: "url",
                    autoComplete: "url",
                    maxLength: applicationLimits.portfolioUrl,
                  })}
                </FormField>
              </Stack>

              <Stack as="fieldset" gap="4">
                <Heading as="legend" size="md" mb="3">
                  Tu equipo
                </Heading>
                <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                  <FormField label="Tipo de cámara" error={errors.cameraType}>
                    {select("cameraType", cameraTypes, cameraTypeLabels, "Sin especificar")}
                  </FormField>
                  <FormField label="Modelo de cámara" error={errors.cameraModel}>
                    {text("cameraModel", { maxLength: applicationLimits.cameraModel })}
                  </FormField>
                </SimpleGrid>
                <FormField label="Lentes" error={errors.lensDetails}>
                  {text("lensDetails", { maxLength: applicationLimits.lensDetails })}
                </FormField>
              </Stack>

              <FormField label="Mensaje" error={errors.message}>
                {area("message", applicationLimits.message)}
              </FormField>

              <Button type="submit" colorPalette="blue" loading={submit.isPending} loadingText="Enviando...">
                Enviar aplicación
              </Button>
            </Stack>
          </form>
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
