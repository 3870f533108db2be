import { api } from "@dorsal/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";

export function useResetSales() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(api.settings.resetSales),
    meta: { errorMessage: "No se pudieron reiniciar las ventas del mes" },
    // 'Ventas del Mes' counts from the reset on.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
  });
}
