import { type ComponentProps, lazy, Suspense } from "react";
import type { PhotoPreviewDialog } from "./photo-preview-dialog";

const Preview = lazy(() => import("./photo-preview-dialog").then((module) => ({ default: module.PhotoPreviewDialog })));

/**
 * The photo preview for screens of the athlete's first load (/search, /free-photos): its code and
 * Chakra's dialog machinery (focus trap, dismissal, scroll lock) load with the first list of photos
 * rather than before the page can paint (issue 20). Closed until then, as it is until a photo is
 * opened anyway.
 */
export function LazyPhotoPreviewDialog(props: ComponentProps<typeof PhotoPreviewDialog>) {
  return (
    <Suspense fallback={null}>
      <Preview {...props} />
    </Suspense>
  );
}
