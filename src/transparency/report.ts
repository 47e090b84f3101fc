/**
 * The transparency page's one read: the report the waitlist service publishes (shared/transparency.ts), as a
 * react-query query retried on failures that may pass.
 */
import { useQuery } from "@tanstack/react-query";
import { send } from "../api/client";
import { TRANSPARENCY_PATHS, type TransparencyReport } from "../../shared/transparency";
import { REFERRAL_READ_RETRIES } from "../referrals/queries";

/** How long the read may take (ms): the report is one small file. */
const REPORT_TIMEOUT_MS = 10_000;

/**
 * The report.
 * @throws Error when it cannot be read or is not a report (the page then shows its `unavailable` words)
 */
async function fetchReport(signal?: AbortSignal): Promise<TransparencyReport> {
  const answer = await send(
    TRANSPARENCY_PATHS.report,
    { headers: { accept: "application/json" } },
    { timeoutMs: REPORT_TIMEOUT_MS, signal },
  );
  if (!answer.answered || answer.status !== 200) throw new Error(`${TRANSPARENCY_PATHS.report} could not be read`);
  const report = answer.body as Partial<TransparencyReport> | null;
  if (!report || !Array.isArray(report.weeks) || !Array.isArray(report.draws) || !report.auditLog) {
    throw new Error(`${TRANSPARENCY_PATHS.report} is not a report`);
  }
  return report as TransparencyReport;
}

export function useTransparencyReport() {
  return useQuery({
    queryKey: ["transparency-report"],
    queryFn: ({ signal }) => fetchReport(signal),
    retry: (failures) => failures < REFERRAL_READ_RETRIES,
  });
}
