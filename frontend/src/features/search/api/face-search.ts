import { facesApi } from "@dorsal/shared/contract/faces";
import { useMutation } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

/** The form the API takes: the event, the ticked consent and the selfie itself. */
function selfieForm(eventId: number, selfie: File): FormData {
  const form = new FormData();
  form.append("eventId", String(eventId));
  form.append("consent", "true");
  form.append("selfie", selfie);
  return form;
}

/** Selfie search (issue 23): its refusals (no face, several faces) are shown in the panel, not as toasts. */
export function useFaceSearch(eventId: number) {
  return useMutation({
    mutationFn: (selfie: File) => apiCall(facesApi.search, { body: selfieForm(eventId, selfie) }),
    meta: { errorToast: false },
  });
}

/** The athlete's deletion: the photos this selfie finds stop answering it. */
export function useForgetFace(eventId: number) {
  return useMutation({
    mutationFn: (selfie: File) => apiCall(facesApi.forget, { body: selfieForm(eventId, selfie) }),
    meta: { errorToast: false },
  });
}
