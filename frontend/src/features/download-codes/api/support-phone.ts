import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

/** The part of GET /api/settings the payment instructions need; null until the organizer sets it. */
interface SupportSettings {
  supportPhone: string | null;
}

export const supportPhoneQueryOptions = () =>
  queryOptions({
    queryKey: ["settings"],
    queryFn: ({ signal }) => apiFetch<SupportSettings>("/api/settings", { signal }),
    select: (settings) => settings.supportPhone ?? null,
  });

export function useSupportPhone() {
  return useQuery(supportPhoneQueryOptions());
}
