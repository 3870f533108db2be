import { Button, type ButtonProps } from "@chakra-ui/react";

interface LoadMoreButtonProps extends ButtonProps {
  /** A list the server pages with a cursor (an infinite query). */
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}

/** 'Cargar más' under a paged list; gone once the list is whole. */
export function LoadMoreButton({ list, ...button }: LoadMoreButtonProps) {
  if (!list.hasNextPage) return null;
  return (
    <Button
      variant="outline"
      alignSelf="center"
      onClick={() => void list.fetchNextPage()}
      loading={list.isFetchingNextPage}
      {...button}
    >
      Cargar más
    </Button>
  );
}
