import {
  Alert,
  Button,
  CloseButton,
  Dialog,
  Field,
  Input,
  Portal,
  Progress,
  Spinner,
  Stack,
  Text,
} from "@chakra-ui/react";
import { type DownloadPhoto, downloadCode, salesMessages } from "@dorsal/shared";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { toaster } from "../../../components/ui/toaster";
import { remainingAfter, savePhoto, validateDownloadCode, validationFailureMessage } from "../api/validate-code";

/** Spec §4/§9: the downloads start 1 s after the code is accepted; the dialog closes 2 s after they end. */
const startDelayMs = 1000;
const closeDelayMs = 2000;

interface CodeDialogProps {
  eventId: number;
  dorsalNumber: string;
  open: boolean;
  onClose: () => void;
}

type Phase =
  | { name: "entry"; error: string | null }
  | { name: "validating" }
  | { name: "valid"; photos: DownloadPhoto[]; done: number; downloaded: ReadonlySet<string>; finished: boolean };

function CodeDialogBody({ eventId, dorsalNumber, onClose }: Omit<CodeDialogProps, "open">) {
  const [code, setCode] = useState("");
  const [phase, setPhase] = useState<Phase>({ name: "entry", error: null });
  const inputRef = useRef<HTMLInputElement>(null);
  // Closing the dialog mid-way stops what is still queued (timers and the remaining photos).
  const closed = useRef(false);
  const timers = useRef<number[]>([]);

  useEffect(
    () => () => {
      closed.current = true;
      for (const timer of timers.current) window.clearTimeout(timer);
    },
    [],
  );

  const later = (run: () => void, delayMs: number) => {
    timers.current.push(window.setTimeout(run, delayMs));
  };

  /** One after another, so a phone is not asked to hold every original in memory at once. */
  const downloadAll = async (photos: DownloadPhoto[]) => {
    const downloaded = new Set<string>();
    for (const [index, photo] of photos.entries()) {
      if (closed.current) return;
      try {
        await savePhoto(photo);
        downloaded.add(photo.id);
      } catch {
        toaster.create({ type: "error", title: "Error al descargar la foto", description: photo.originalFilename });
      }
      if (closed.current) return;
      setPhase({ name: "valid", photos, done: index + 1, downloaded: new Set(downloaded), finished: false });
    }
    setPhase({ name: "valid", photos, done: photos.length, downloaded, finished: true });
    later(onClose, closeDelayMs);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = downloadCode.safeParse(code);
    if (!parsed.success) {
      setPhase({ name: "entry", error: parsed.error.issues[0]?.message ?? salesMessages.codeRequired });
      inputRef.current?.focus();
      return;
    }
    setCode(parsed.data);
    setPhase({ name: "validating" });
    let error: string;
    try {
      const validation = await validateDownloadCode({ code: parsed.data, eventId, dorsalNumber });
      if (validation.valid) {
        if (closed.current) return;
        const { photos } = validation;
        setPhase({ name: "valid", photos, done: 0, downloaded: new Set(), finished: false });
        later(() => void downloadAll(photos), startDelayMs);
        return;
      }
      error = validation.error || salesMessages.codeInvalid;
    } catch (failure) {
      error = validationFailureMessage(failure);
    }
    if (closed.current) return;
    setPhase({ name: "entry", error });
    inputRef.current?.focus();
  };

  if (phase.name === "valid") {
    const { photos, done, downloaded, finished } = phase;
    return (
      <Dialog.Body>
        <Stack gap="4" aria-live="polite">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Código válido</Alert.Title>
              <Alert.Description>
                {finished
                  ? `Descarga terminada: ${downloaded.size} de ${photos.length} fotos guardadas.`
                  : done === 0
                    ? `Tus ${photos.length} fotos empezarán a descargarse en un momento.`
                    : `Descargando foto ${Math.min(done + 1, photos.length)} de ${photos.length}…`}
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Progress.Root value={photos.length === 0 ? 100 : (done / photos.length) * 100} colorPalette="green">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text>Descargas restantes con este código: {remainingAfter(photos, downloaded)}</Text>
        </Stack>
      </Dialog.Body>
    );
  }

  const validating = phase.name === "validating";
  const error = phase.name === "entry" ? phase.error : null;
  return (
    <form onSubmit={submit} noValidate>
      <Dialog.Body>
        <Stack gap="4">
          <Text color="fg.muted">
            Ingresa el código que recibiste al enviar tu comprobante de pago para descargar las fotos del dorsal{" "}
            {dorsalNumber} sin marca de agua.
          </Text>
          <Field.Root required invalid={Boolean(error)}>
            <Field.Label>Código de descarga</Field.Label>
            <Input
              ref={inputRef}
              value={code}
              onChange={(change) => {
                setCode(change.currentTarget.value);
                if (error) setPhase({ name: "entry", error: null });
              }}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={32}
              fontFamily="mono"
              textTransform="uppercase"
              disabled={validating}
            />
            <Field.ErrorText>{error}</Field.ErrorText>
          </Field.Root>
          {validating && (
            <Stack direction="row" align="center" gap="2" color="fg.muted">
              <Spinner size="sm" />
              <Text>Validando código…</Text>
            </Stack>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Dialog.ActionTrigger asChild>
          <Button variant="outline">Cancelar</Button>
        </Dialog.ActionTrigger>
        <Button type="submit" colorPalette="blue" loading={validating} loadingText="Validando...">
          Descargar
        </Button>
      </Dialog.Footer>
    </form>
  );
}

/**
 * Spec §2.6/§4: download a bib's photos with a code the organizer issued (entry → validating →
 * valid). Mounted fresh on every opening, so a second code starts from an empty field.
 */
export function CodeDialog({ eventId, dorsalNumber, open, onClose }: CodeDialogProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      lazyMount
      unmountOnExit
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header pe="12">
              <Dialog.Title>Descargar con código</Dialog.Title>
            </Dialog.Header>
            <CodeDialogBody eventId={eventId} dorsalNumber={dorsalNumber} onClose={onClose} />
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Cerrar" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
