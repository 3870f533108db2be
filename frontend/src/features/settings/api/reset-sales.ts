import type { ResetSalesResponse } from "@dorsal/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-fetch";
import { dashboardStatsQueryOptions } from "../../../lib/queries/dashboard-stats";

export function resetSales(): Promise<ResetSalesResponse> {
  return apiFetch<ResetSalesResponse>("/api/admin/reset-sales", { method: "POST" });
}

export function useResetSales() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetSales,
    meta: { errorMessage: "No se pudieron reiniciar las ventas del mes" },
    // 'Ventas del Mes' counts from the reset on.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardStatsQueryOptions().queryKey }),
  });
}
