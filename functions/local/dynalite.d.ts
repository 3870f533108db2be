declare module "dynalite" {
  import type { Server } from "node:http";

  interface DynaliteOptions {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}

/** dynalite's own key encoding, so a repair writes index entries exactly as dynalite would. */
declare module "dynalite/db" {
  type AttributeValueItem = Record<string, Record<string, unknown>>;
  interface IndexAction {
    index: string;
    key: string;
    item: AttributeValueItem;
  }
  export function getIndexActions(
    indexes: unknown[],
    existingItem: AttributeValueItem | null,
    item: AttributeValueItem,
    table: unknown,
  ): { puts: IndexAction[]; deletes: IndexAction[] };
}
