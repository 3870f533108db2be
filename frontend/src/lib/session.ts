import { type PublicUser, publicUser, type Role } from "@dorsal/shared";
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
/** The role of a session the server stopped accepting, until the next sign-in or logout. */
let expiredRole: Role | null = null;

/** Spec §2.2: each role signs in again where it signed in first. */
const loginPaths: Record<Role, string> = {
  admin: "/admin-login",
  photographer: "/photographer-login",
  athlete: "/athlete-login",
  user: "/",
};

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
    expiredRole = null;
    localStorage.setItem(SESSION_KEY, JSON.stringify(user));
    emit(user);
  },
  /** Logout, or a session that must not be trusted (render failure): no login to go back to. */
  clear(): void {
    expiredRole = null;
    localStorage.removeItem(SESSION_KEY);
    emit(null);
  },
  /**
   * The server refused the token (expired, or the password changed since): the user is sent to
   * their own login rather than to the landing page.
   */
  expire(): void {
    // Set before listeners run: the redirect they render reads it.
    expiredRole = current?.role ?? null;
    localStorage.removeItem(SESSION_KEY);
    emit(null);
  },
  /** Where to sign in again after `expire`, or null when the session simply ended. */
  expiredLoginPath: (): string | null => (expiredRole ? loginPaths[expiredRole] : null),
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): SessionUser | null {
  return useSyncExternalStore(session.subscribe, session.get);
}
