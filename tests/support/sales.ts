import type { SaleRecord } from "../../functions/src/data/sales";

/**
 * A pending sale of one photo as checkout stores it, created at `at`, with the token hash named
 * after its id; `sale` sets the event, the bib and whatever else a test or benchmark needs.
 */
export const pendingSale = (
  id: string,
  at: Date,
  sale: Pick<SaleRecord, "eventId" | "dorsalNumber"> & Partial<SaleRecord>,
): SaleRecord => ({
  id,
  reference: `DOR-${id}`,
  photoIds: ["foto-1"],
  amount: 15000,
  currency: "COP",
  customerEmail: "ana@example.co",
  customerName: "Ana Gómez",
  status: "pending",
  tokenHash: `pagina-${id}`,
  maxDownloads: 3,
  validityDays: 30,
  createdAt: at.toISOString(),
  checkoutExpiresAt: at.toISOString(),
  paidAt: null,
  expiresAt: null,
  transactionId: null,
  paymentMethod: null,
  statusMessage: null,
  updatedAt: at.toISOString(),
  ...sale,
});
