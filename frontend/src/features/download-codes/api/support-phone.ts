import type { PublicSettingsDto } from "@dorsal/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";

export const supportPhoneQueryOptions = () =>
  queryOptions({
    queryKey: ["settings"],
    queryFn: ({ signal }) => apiFetch<PublicSettingsDto>("/api/settings", { signal }),
    select: (settings) => settings.supportPhone,
  });

export function useSupportPhone() {
  return useQuery(supportPhoneQueryOptions());
}
