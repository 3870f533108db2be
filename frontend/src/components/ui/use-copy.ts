import { useEffect, useRef, useState } from "react";
import { toaster } from "./toaster";

/** Puts `text` on the clipboard. Where the browser refuses (plain HTTP, no permission) a toast says so. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    toaster.create({ type: "error", title: "Error al copiar", description: "No se pudo copiar al portapapeles" });
    return false;
  }
}

/** Spec §9: how long 'copied' stays on the button. */
const copiedForMs = 3000;

/** A copy button: `copy` puts `text` on the clipboard, and `copied` holds for a while after it did. */
export function useCopy(text: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    if (!(await copyText(text))) return;
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), copiedForMs);
  };
  return { copied, copy };
}
