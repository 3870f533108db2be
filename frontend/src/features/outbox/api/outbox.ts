import { adminApi } from "@dorsal/shared/contract/admin";
import { skipToken, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiCall } from "../../../lib/api-fetch";

const outboxKey = ["outbox"] as const;
const pageSize = 20;

/** What was emailed, newest first, 20 at a time. */
export function useOutbox() {
  return useInfiniteQuery({
    queryKey: outboxKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiCall(adminApi.outbox, { query: { limit: pageSize, cursor: pageParam }, signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useOutboxMessage(id: string | null) {
  return useQuery({
    queryKey: [...outboxKey, "message", id],
    queryFn: id === null ? skipToken : ({ signal }) => apiCall(adminApi.outboxMessage, { params: { id }, signal }),
  });
}

/**
 * A text cut into plain runs and the web links in it, so a screen can make the links clickable;
 * `at` is where each part starts (a stable key).
 */
export function splitLinks(text: string): { text: string; link: boolean; at: number }[] {
  let at = 0;
  return text
    .split(/(https?:\/\/[^\s<>"']+)/)
    .map((part, index) => {
      const piece = { text: part, link: index % 2 === 1, at };
      at += part.length;
      return piece;
    })
    .filter((part) => part.text !== "");
}
