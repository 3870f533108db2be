import {
  type AccountCode,
  type AccountPurchasePage,
  type AccountSentLink,
  accountPurchasesQuery,
  accountSaleParams,
  verifyEmailRequest,
} from "../account";
import { endpoint } from "./endpoint";

/** Who has a 'Tu cuenta': athletes who registered and the plain `user` accounts an admin creates. */
const accountOwners = ["user", "athlete"] as const;

/** Email verification, served by the `auth` function (it owns the account). */
export const accountAuthApi = {
  /** Sends (again) the link that verifies the account's email; throttled. */
  sendVerification: endpoint<AccountSentLink>()({
    method: "POST",
    path: "/api/account/verification",
    access: accountOwners,
  }),
  /** Public: the link is often opened on another device than the one signed in. */
  verifyEmail: endpoint<{ verified: true }>()({
    method: "POST",
    path: "/api/account/verify-email",
    access: "public",
    body: verifyEmailRequest,
  }),
};

/** The account's purchases and codes, served by the `sales` function (it owns sales and their links). */
export const accountSalesApi = {
  purchases: endpoint<AccountPurchasePage>()({
    method: "GET",
    path: "/api/account/purchases",
    access: accountOwners,
    query: accountPurchasesQuery,
  }),
  /** Emails a fresh download link of the purchase to the account's (verified) address. */
  purchaseLink: endpoint<AccountSentLink>()({
    method: "POST",
    path: "/api/account/purchases/{saleId}/link",
    access: accountOwners,
    params: accountSaleParams,
  }),
  codes: endpoint<{ codes: AccountCode[] }>()({
    method: "GET",
    path: "/api/account/codes",
    access: accountOwners,
  }),
};
