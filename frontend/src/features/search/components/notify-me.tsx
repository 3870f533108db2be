import { Alert, Button, Card, Checkbox, Field, Heading, Input, Stack, Text } from "@chakra-ui/react";
import { notificationsApi } from "@dorsal/shared/contract/notifications";
import { notifyConsentTexts, notifyConsentVersion, notifyRequest } from "@dorsal/shared/notifications";
import { type FormEvent, useState } from "react";
import { apiCall } from "../../../lib/api-fetch";

/** Chakra's error red (red.500) on this white card is 3.8:1, under WCAG AA's 4.5:1 for small text. */
const errorColor = "red.700";

type Phase = { name: "form" } | { name: "sending" } | { name: "sent"; message: string };

/**
 * 'Avísame cuando estén mis fotos' under a bib's results, found or not: an email and a consent box
 * that is never ticked for the athlete. Loaded on its own (search-page.tsx), out of /search's first load.
 */
export function NotifyMe({ eventId, eventName, dorsal }: { eventId: number; eventName: string; dorsal: string }) {
  const [email, setEmail] = useState("");
  const [consent, setConsent] = useState(false);
  const [phase, setPhase] = useState<Phase>({ name: "form" });
  const [errors, setErrors] = useState<{ email?: string; consent?: string; form?: string }>({});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = { eventId, bib: dorsal, email, consent };
    const parsed = notifyRequest.safeParse(body);
    if (!parsed.success) {
      const messageAt = (path: string) => parsed.error.issues.find((issue) => issue.path[0] === path)?.message;
      setErrors({ email: messageAt("email"), consent: messageAt("consent") });
      return;
    }
    setErrors({});
    setPhase({ name: "sending" });
    try {
      const answer = await apiCall(notificationsApi.request, { body: { ...body, consent: true } });
      setPhase({ name: "sent", message: answer.message });
    } catch (error) {
      setPhase({ name: "form" });
      setErrors({ form: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="3">
          <Heading as="h2" size="md">
            Avísame cuando estén mis fotos
          </Heading>
          {phase.name === "sent" ? (
            <Alert.Root status="success" role="status">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Revisa tu correo</Alert.Title>
                <Alert.Description>{phase.message}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : (
            <form onSubmit={submit} noValidate aria-label="Avísame cuando estén mis fotos">
              <Stack gap="3">
                <Text textStyle="sm" color="fg.muted">
                  Te escribimos una vez cuando haya fotos del dorsal {dorsal}, y otra como mucho al día si llegan más.
                </Text>
                <Field.Root invalid={errors.email !== undefined}>
                  <Field.Label>Tu correo</Field.Label>
                  <Input
                    type="email"
                    autoComplete="email"
                    value={email}
                    onChange={(event) => {
                      setEmail(event.currentTarget.value);
                      setErrors((current) => ({ ...current, email: undefined }));
                    }}
                    placeholder="tu@correo.com"
                    bg="white"
                  />
                  {errors.email && <Field.ErrorText color={errorColor}>{errors.email}</Field.ErrorText>}
                </Field.Root>
                <Field.Root invalid={errors.consent !== undefined}>
                  <Checkbox.Root
                    checked={consent}
                    onCheckedChange={(change) => {
                      setConsent(change.checked === true);
                      setErrors((current) => ({ ...current, consent: undefined }));
                    }}
                    alignItems="flex-start"
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control mt="0.5" />
                    <Checkbox.Label fontWeight="normal" textStyle="sm">
                      {notifyConsentTexts[notifyConsentVersion](eventName, dorsal)}
                    </Checkbox.Label>
                  </Checkbox.Root>
                  {errors.consent && <Field.ErrorText color={errorColor}>{errors.consent}</Field.ErrorText>}
                </Field.Root>
                {errors.form && (
                  <Alert.Root status="error" role="alert">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Description>{errors.form}</Alert.Description>
                    </Alert.Content>
                  </Alert.Root>
                )}
                <Button
                  type="submit"
                  variant="outline"
                  colorPalette="blue"
                  loading={phase.name === "sending"}
                  loadingText="Enviando..."
                  alignSelf={{ base: "stretch", md: "flex-start" }}
                >
                  Avísame
                </Button>
              </Stack>
            </form>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
