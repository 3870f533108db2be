/**
 * What a buyer's browser does on the local payment sandbox's checkout page: submits its form with
 * one of the buttons ('Aprobar', 'Rechazar', 'Pendiente'). Answers the sandbox's redirect.
 */
export async function chooseOnSandbox(
  dorsalUrl: string,
  paymentUrl: URL,
  outcome: "APPROVED" | "DECLINED" | "PENDING",
): Promise<Response> {
  const form = new URLSearchParams(paymentUrl.searchParams);
  form.set("outcome", outcome);
  return fetch(new URL("/sandbox/wompi/p/", dorsalUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
}
