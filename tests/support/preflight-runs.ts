import type { PreflightRunDto } from "@dorsal/shared";
import { allUsers, type apiClient, waitFor } from "./api";

type Client = ReturnType<typeof apiClient>;

/** Waits for a run the server started to end, as /preflight polls it. */
export const runEnded = (admin: Client, runId: string, timeoutMs = 120_000) =>
  waitFor(
    async () => {
      const { body } = await admin.get<PreflightRunDto>(`/api/admin/preflight/${runId}`);
      return body.state === "running" ? undefined : body;
    },
    timeoutMs,
    `preflight run ${runId} to end`,
  );

/** The admins a probe signs in as; it removes them when it ends. */
export const temporaryAdmins = async (admin: Client) =>
  (await allUsers(admin)).filter((user) => user.email.startsWith("preflight-"));
