import { settingsApi } from "@dorsal/shared/contract/settings";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";

export function useResetSales() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(settingsApi.resetSales),
    meta: { errorMessage: "No se pudieron reiniciar las ventas del mes" },
    // 'Ventas del Mes' counts from the reset on.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
  });
}
