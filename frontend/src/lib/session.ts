import { type PublicUser, publicUser } from "@dorsal/shared";
import { useSyncExternalStore } from "react";

/** Spec §2.1: the session (user object plus token) lives under this local-storage key. */
export const SESSION_KEY = "race_photo_user";

export type SessionUser = PublicUser & { token: string };

type Listener = () => void;

/**
 * Only what routing depends on is checked, so a user object that gains or loses optional
 * fields between releases does not log everyone out on the next page load.
 */
const sessionIdentity = publicUser.pick({ email: true, role: true });

export function toSessionUser(value: unknown): SessionUser | null {
  if (!sessionIdentity.safeParse(value).success) return null;
  const token = (value as { token?: unknown }).token;
  if (typeof token !== "string" || token === "") return null;
  return value as SessionUser;
}

const listeners = new Set<Listener>();
let current: SessionUser | null = null;

function parseStored(raw: string | null): { user: SessionUser | null; adminWithoutToken: boolean } {
  if (!raw) return { user: null, adminWithoutToken: false };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { user: null, adminWithoutToken: false };
  }
  const user = toSessionUser(value);
  if (user) return { user, adminWithoutToken: false };
  return { user: null, adminWithoutToken: sessionIdentity.safeParse(value).data?.role === "admin" };
}

function emit(next: SessionUser | null) {
  current = next;
  for (const listener of listeners) listener();
}

/**
 * Reads the stored session once, before the first render. A stored value that no longer matches
 * the user shape (older release, manual edits) is dropped rather than trusted. An admin stored
 * without a token cannot call any admin API, so spec §2.2 sends them straight to the admin login.
 */
export function restoreSession(): void {
  const { user, adminWithoutToken } = parseStored(localStorage.getItem(SESSION_KEY));
  if (!user) localStorage.removeItem(SESSION_KEY);
  if (adminWithoutToken) {
    console.warn("Sesión de administrador sin token: se cierra la sesión");
    window.history.replaceState(null, "", "/admin-login");
  }
  current = user;
  // Logging out in one tab must not leave another tab acting with a dead token.
  window.addEventListener("storage", (event) => {
    if (event.key === SESSION_KEY || event.key === null) {
      emit(parseStored(localStorage.getItem(SESSION_KEY)).user);
    }
  });
}

export const session = {
  get: (): SessionUser | null => current,
  save(user: SessionUser): void {
    localStorage.setItem(SESSION_KEY, JSON.stringify(user));
    emit(user);
  },
  clear(): void {
    localStorage.removeItem(SESSION_KEY);
    emit(null);
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): SessionUser | null {
  return useSyncExternalStore(session.subscribe, session.get);
}
