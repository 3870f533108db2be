import { api } from "@dorsal/shared/contract";
import { driveAuthParam } from "@dorsal/shared/drive";
import { driveAuthUrl, driveCallback, driveFolders, drivePhotos, driveReset, startDriveImport } from "../../app/drive";
import { getContainer } from "../../compose";
import { createHttpHandler, reply } from "../../http/handler";

/** Cloud-drive folder import (spec §2.5, §7). */
export const handler = createHttpHandler(
  api.drive,
  {
    folders: ({ deps, session }) => driveFolders(deps, session),
    photos: ({ deps, session, params }) => drivePhotos(deps, session, params.id),
    auth: ({ deps, session, query }) => driveAuthUrl(deps, session, query),
    // Back to the upload screen, on the site's own origin, saying how it ended (spec §4).
    callback: async ({ deps, query }) =>
      reply(302, undefined, { location: `/upload?${driveAuthParam}=${await driveCallback(deps, query)}` }),
    reset: ({ deps, session }) => driveReset(deps, session),
    import: ({ deps, session, params, body }) => startDriveImport(deps, session, params.eventId, body.folderId),
  },
  getContainer,
);
