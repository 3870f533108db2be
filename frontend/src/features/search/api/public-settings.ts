import { settingsApi } from "@dorsal/shared/contract/settings";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** One request for the price and the support phone, whichever of them a part of the screen reads. */
export const publicSettingsQueryOptions = () =>
  queryOptions({
    queryKey: ["settings"],
    queryFn: ({ signal }) => apiCall(settingsApi.get, { signal }),
  });

export function useSupportPhone() {
  return useQuery({ ...publicSettingsQueryOptions(), select: (settings) => settings.supportPhone });
}
