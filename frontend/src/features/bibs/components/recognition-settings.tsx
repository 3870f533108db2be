import {
  Alert,
  Box,
  Button,
  Card,
  Code,
  Field,
  Heading,
  HStack,
  Input,
  InputGroup,
  Progress,
  RadioGroup,
  Separator,
  Skeleton,
  Stack,
  Switch,
  Text,
} from "@chakra-ui/react";
import { cleanLetters, type EventConfigDto } from "@dorsal/shared";
import { type FormEvent, useState } from "react";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { LoadError } from "../../../components/ui/load-error";
import { toaster } from "../../../components/ui/toaster";
import { ApiError } from "../../../lib/api-fetch";
import { formatCount, formatDateTime } from "../../../lib/format";
import { useEventConfig, useUpdateEventConfig } from "../api/event-config";
import {
  type Draft,
  draftExample,
  type FieldErrors,
  type FormatChoice,
  fieldMessages,
  type NumberField,
  parseDraft,
  toDraft,
} from "../api/recognition-draft";
import { type ReindexState, useReindex } from "../hooks/use-reindex";
import { FaceSearchSetting } from "./face-search-setting";

function ReindexProgressView({
  state,
  total,
  onCancel,
}: {
  state: ReindexState;
  total?: number;
  onCancel: () => void;
}) {
  if (!state.running) return null;
  const percent = total && state.processed <= total ? Math.round((state.processed / total) * 100) : null;
  return (
    <Stack gap="2" aria-live="polite">
      <Progress.Root value={percent} colorPalette="blue" striped animated aria-label="Progreso de la re-indexación">
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Text textStyle="sm">
        {/* Photos uploaded during the run can take the count past the total read before it. */}
        {!total || state.processed > total
          ? `${formatCount(state.processed)} fotos revisadas`
          : `${formatCount(state.processed)} de ${formatCount(total)} fotos revisadas`}
      </Text>
      <Text textStyle="xs" color="fg.muted">
        {state.pages === 0
          ? "Empezando…"
          : `${formatCount(state.pages)} ${state.pages === 1 ? "página" : "páginas"} · ${formatCount(state.changed)} ${
              state.changed === 1 ? "foto cambió" : "fotos cambiaron"
            }`}
      </Text>
      <Button size="sm" variant="outline" colorPalette="red" onClick={onCancel} alignSelf="flex-start">
        Cancelar re-indexación
      </Button>
    </Stack>
  );
}

interface ReindexConfirmProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  unsaved: boolean;
  total?: number | undefined;
}

function ReindexConfirm({ open, onOpenChange, onConfirm, unsaved, total }: ReindexConfirmProps) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="¿Re-indexar los dorsales?"
      confirmLabel="Re-indexar ahora"
      onConfirm={onConfirm}
      colorPalette="blue"
    >
      <Stack gap="3">
        <Text>
          Se volverán a aplicar las reglas de reconocimiento guardadas a cada foto procesada del evento
          {total !== undefined ? ` (${formatCount(total)} ${total === 1 ? "foto" : "fotos"})` : ""}. Las fotos no se
          vuelven a analizar: se usa el texto ya leído.
        </Text>
        <Text>
          Las correcciones manuales se conservan: los dorsales agregados a mano se mantienen y los quitados no vuelven.
        </Text>
        {unsaved && (
          <Alert.Root status="warning" size="sm">
            <Alert.Indicator />
            <Alert.Title>Tienes cambios sin guardar: la re-indexación usará la configuración guardada.</Alert.Title>
          </Alert.Root>
        )}
      </Stack>
    </ConfirmDialog>
  );
}

interface RecognitionFormProps {
  eventId: number;
  config: EventConfigDto;
  totalPhotos?: number | undefined;
  reindex: ReturnType<typeof useReindex>;
}

function RecognitionForm({ eventId, config, totalPhotos, reindex }: RecognitionFormProps) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(config));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirming, setConfirming] = useState(false);
  const save = useUpdateEventConfig(eventId);
  const running = reindex.state.running;
  const saved = toDraft(config);
  const dirty = (Object.keys(saved) as (keyof Draft)[]).some((key) => saved[key] !== draft[key]);

  const change = (field: NumberField) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = parseDraft(draft);
    if ("errors" in result) {
      setErrors(result.errors);
      return;
    }
    save.mutate(result.config, {
      onSuccess: (stored) => {
        setDraft(toDraft(stored));
        toaster.create({
          type: "success",
          title: "Configuración guardada",
          description: "Se aplica a las fotos nuevas. Re-indexa los dorsales para aplicarla a las ya procesadas.",
        });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.details) {
          const fromServer: FieldErrors = {};
          for (const detail of error.details) {
            const field = detail.path as NumberField;
            if (detail.path === "bibPattern") fromServer.bibPattern = detail.message;
            else if (field in fieldMessages) fromServer[field] = fieldMessages[field];
          }
          setErrors(fromServer);
        }
      },
    });
  };

  return (
    <Stack gap="5">
      <form onSubmit={submit} noValidate aria-label="Configuración de reconocimiento">
        <Stack gap="4">
          <Field.Root invalid={Boolean(errors.ocrConfidenceThreshold)} disabled={running}>
            <Field.Label>Confianza mínima</Field.Label>
            <InputGroup endElement="%">
              <Input
                value={draft.ocrConfidenceThreshold}
                onChange={change("ocrConfidenceThreshold")}
                inputMode="decimal"
                autoComplete="off"
                bg="white"
              />
            </InputGroup>
            <Field.HelperText>Lecturas con menos confianza no cuentan como dorsal (0 a 100).</Field.HelperText>
            <Field.ErrorText>{errors.ocrConfidenceThreshold}</Field.ErrorText>
          </Field.Root>

          <Field.Root disabled={running}>
            <SettingSwitch
              label="Varios dorsales por foto"
              checked={draft.enableMultiDorsalSupport}
              disabled={running}
              onChange={(checked) => setDraft((current) => ({ ...current, enableMultiDorsalSupport: checked }))}
            />
            <Field.HelperText>Apagado, cada foto conserva solo el dorsal con mayor confianza.</Field.HelperText>
          </Field.Root>

          <Field.Root
            invalid={Boolean(errors.maxDorsalsPerPhoto)}
            disabled={running || !draft.enableMultiDorsalSupport}
          >
            <Field.Label>Máximo de dorsales por foto</Field.Label>
            <Input
              value={draft.maxDorsalsPerPhoto}
              onChange={change("maxDorsalsPerPhoto")}
              inputMode="numeric"
              autoComplete="off"
              bg="white"
            />
            <Field.HelperText>De 1 a 50; se guardan los de mayor confianza.</Field.HelperText>
            <Field.ErrorText>{errors.maxDorsalsPerPhoto}</Field.ErrorText>
          </Field.Root>

          <Field.Root invalid={Boolean(errors.dorsalSizeThreshold)} disabled={running}>
            <Field.Label>Tamaño mínimo del dorsal</Field.Label>
            <Input
              value={draft.dorsalSizeThreshold}
              onChange={change("dorsalSizeThreshold")}
              inputMode="decimal"
              autoComplete="off"
              bg="white"
            />
            <Field.HelperText>
              Alto mínimo de los dígitos frente a la cara de quien lleva el dorsal, de 0 a 1 (0 lo desactiva).
            </Field.HelperText>
            <Field.ErrorText>{errors.dorsalSizeThreshold}</Field.ErrorText>
          </Field.Root>

          <BibFormatField
            draft={draft}
            customStored={saved.format === "custom"}
            error={errors.bibPattern}
            disabled={running}
            onChange={(changes) => {
              setDraft((current) => ({ ...current, ...changes }));
              setErrors((current) => ({ ...current, bibPattern: undefined }));
            }}
          />

          <Field.Root invalid={Boolean(errors.minDigits || errors.maxDigits)} disabled={running}>
            <Field.Label>Dígitos del dorsal</Field.Label>
            <HStack gap="2">
              <Input
                aria-label="Mínimo de dígitos"
                value={draft.minDigits}
                onChange={change("minDigits")}
                inputMode="numeric"
                autoComplete="off"
                bg="white"
              />
              <Text color="fg.muted">a</Text>
              <Input
                aria-label="Máximo de dígitos"
                value={draft.maxDigits}
                onChange={change("maxDigits")}
                inputMode="numeric"
                autoComplete="off"
                bg="white"
              />
            </HStack>
            <Field.HelperText>
              Los dígitos que tienen los dorsales de este evento; una lectura más corta suele ser un dorsal tapado.
            </Field.HelperText>
            <Field.ErrorText>{errors.minDigits ?? errors.maxDigits}</Field.ErrorText>
          </Field.Root>

          <Field.Root disabled={running}>
            <SettingSwitch
              label="Dorsales con ceros a la izquierda"
              checked={draft.allowLeadingZeros}
              disabled={running}
              onChange={(checked) => setDraft((current) => ({ ...current, allowLeadingZeros: checked }))}
            />
            <Field.HelperText>
              Actívalo si los dorsales se imprimen como «0891»; si no, una lectura que empieza por 0 se descarta.
            </Field.HelperText>
          </Field.Root>

          <HStack justify="space-between" gap="3" wrap="wrap">
            <Text textStyle="xs" color="fg.muted">
              {config.updatedAt
                ? `Versión ${config.configurationVersion} · ${formatDateTime(config.updatedAt)}`
                : "Valores predeterminados"}
            </Text>
            <Button
              type="submit"
              colorPalette="blue"
              size="sm"
              disabled={!dirty || running}
              loading={save.isPending}
              loadingText="Guardando..."
            >
              Guardar
            </Button>
          </HStack>
        </Stack>
      </form>

      <Separator />

      <Stack gap="3">
        <Box>
          <Heading as="h3" size="sm">
            Re-indexar dorsales
          </Heading>
          <Text textStyle="sm" color="fg.muted">
            Aplica la configuración guardada a las fotos ya procesadas. Las correcciones manuales se conservan.
          </Text>
        </Box>
        {running ? (
          <ReindexProgressView state={reindex.state} total={totalPhotos} onCancel={reindex.cancel} />
        ) : (
          <Button variant="outline" colorPalette="blue" onClick={() => setConfirming(true)}>
            Re-indexar dorsales
          </Button>
        )}
      </Stack>

      <ReindexConfirm
        open={confirming}
        onOpenChange={setConfirming}
        unsaved={dirty}
        total={totalPhotos}
        onConfirm={() => {
          setConfirming(false);
          void reindex.start();
        }}
      />
    </Stack>
  );
}

const formatChoices: { value: FormatChoice; label: string }[] = [
  { value: "none", label: "Solo números" },
  { value: "before", label: "Letra antes del número" },
  { value: "after", label: "Letra después del número" },
];

/**
 * The organizer picks what the bibs look like; the pattern is built from it (recognition-draft.ts).
 * A stored pattern the choices cannot say stays as 'Formato personalizado' until another is picked.
 */
function BibFormatField({
  draft,
  customStored,
  error,
  disabled,
  onChange,
}: {
  draft: Draft;
  /** The saved pattern is one the choices cannot express: it stays on offer until saved over. */
  customStored: boolean;
  error: string | undefined;
  disabled: boolean;
  onChange: (changes: Partial<Draft>) => void;
}) {
  const example = draftExample(draft);
  const choices = customStored
    ? [...formatChoices, { value: "custom" as const, label: "Formato personalizado" }]
    : formatChoices;
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <RadioGroup.Root
        value={draft.format}
        onValueChange={(details) => onChange({ format: details.value as FormatChoice })}
        disabled={disabled}
        colorPalette="blue"
        size="sm"
      >
        <RadioGroup.Label fontWeight="medium" textStyle="sm" mb="2">
          Formato del dorsal
        </RadioGroup.Label>
        <Stack gap="2">
          {choices.map((choice) => (
            <RadioGroup.Item key={choice.value} value={choice.value}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{choice.label}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </Stack>
      </RadioGroup.Root>
      {(draft.format === "before" || draft.format === "after") && (
        <Box mt="2" width="full">
          <Text asChild textStyle="sm" fontWeight="medium">
            <label htmlFor="bib-letters">Letra</label>
          </Text>
          <Input
            id="bib-letters"
            value={draft.letters}
            onChange={(event) => onChange({ letters: cleanLetters(event.currentTarget.value) })}
            placeholder="Cualquiera"
            autoComplete="off"
            maxLength={26}
            bg="white"
            mt="1"
          />
          <Text textStyle="xs" color="fg.muted" mt="1">
            Vacío acepta cualquier letra; escribe «M», o «MF» si los dorsales llevan M o F.
          </Text>
        </Box>
      )}
      {draft.format === "custom" ? (
        <Text textStyle="sm" mt="2">
          Formato guardado: <Code>{draft.storedPattern}</Code>. Elige otra opción para reemplazarlo.
        </Text>
      ) : example ? (
        <Text textStyle="sm" mt="2" aria-live="polite">
          Ejemplo: <Code>{example.example}</Code> · {example.description}
        </Text>
      ) : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

export function RecognitionSettings({ eventId, totalPhotos }: { eventId: number; totalPhotos?: number | undefined }) {
  const config = useEventConfig(eventId);
  const reindex = useReindex(eventId);
  return (
    <Card.Root as="section" aria-labelledby="recognition-title" size="sm">
      <Card.Header>
        <Heading as="h2" size="md" id="recognition-title">
          Reconocimiento
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          Reglas con las que se leen los dorsales de este evento.
        </Text>
      </Card.Header>
      <Card.Body>
        {config.data ? (
          <Stack gap="6">
            <RecognitionForm eventId={eventId} config={config.data} totalPhotos={totalPhotos} reindex={reindex} />
            <FaceSearchSetting eventId={eventId} config={config.data} />
          </Stack>
        ) : config.isError ? (
          <LoadError title="Error cargando la configuración" query={config} />
        ) : (
          <Stack gap="4" aria-busy="true" aria-label="Cargando configuración">
            <Skeleton height="16" />
            <Skeleton height="10" />
            <Skeleton height="16" />
            <Skeleton height="16" />
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function SettingSwitch(props: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <Switch.Root
      checked={props.checked}
      onCheckedChange={(details) => props.onChange(details.checked)}
      colorPalette="blue"
      disabled={props.disabled}
    >
      <Switch.HiddenInput />
      <Switch.Control>
        <Switch.Thumb />
      </Switch.Control>
      <Switch.Label>{props.label}</Switch.Label>
    </Switch.Root>
  );
}
