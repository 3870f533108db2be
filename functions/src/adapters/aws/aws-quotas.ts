import { GetAccountSettingsCommand, type LambdaClient } from "@aws-sdk/client-lambda";
import {
  ListAWSDefaultServiceQuotasCommand,
  ListServiceQuotasCommand,
  type ServiceQuota,
  type ServiceQuotasClient,
} from "@aws-sdk/client-service-quotas";
import type { PlatformQuotas, QuotaReader } from "../../ports/preflight";

type QuotaPage = { Quotas?: ServiceQuota[]; NextToken?: string };

async function allQuotas(fetchPage: (token?: string) => Promise<QuotaPage>): Promise<ServiceQuota[]> {
  const quotas: ServiceQuota[] = [];
  let token: string | undefined;
  do {
    const page = await fetchPage(token);
    quotas.push(...(page.Quotas ?? []));
    token = page.NextToken;
  } while (token);
  return quotas;
}

/**
 * The account's Lambda concurrency (GetAccountSettings) and Rekognition's TPS for the two
 * operations detect calls. Service Quotas lists an applied value only where the account has one,
 * so the default list fills in the rest; quotas are found by operation name, since their codes
 * differ by region.
 */
export function createAwsQuotaReader(lambda: LambdaClient, serviceQuotas: ServiceQuotasClient): QuotaReader {
  return {
    async read(): Promise<PlatformQuotas> {
      const settings = await lambda.send(new GetAccountSettingsCommand({}));
      const [applied, defaults] = await Promise.all([
        allQuotas((NextToken) =>
          serviceQuotas.send(new ListServiceQuotasCommand({ ServiceCode: "rekognition", NextToken })),
        ),
        allQuotas((NextToken) =>
          serviceQuotas.send(new ListAWSDefaultServiceQuotasCommand({ ServiceCode: "rekognition", NextToken })),
        ),
      ]);
      const tps = (operation: string) => {
        const named = (quota: ServiceQuota) =>
          (quota.QuotaName ?? "").includes(operation) && /transactions per second/i.test(quota.QuotaName ?? "");
        return (applied.find(named) ?? defaults.find(named))?.Value ?? null;
      };
      return {
        platform: "aws",
        lambda: {
          limit: settings.AccountLimit?.ConcurrentExecutions ?? 0,
          unreserved: settings.AccountLimit?.UnreservedConcurrentExecutions ?? 0,
        },
        rekognitionTps: { detectText: tps("DetectText"), detectFaces: tps("DetectFaces") },
      };
    },
  };
}
