import axeCore, { type AxeResults, type RunOptions } from "axe-core";
import type { Page } from "playwright-core";

/** WCAG 2.0 and 2.1, levels A and AA: what issue 17 holds every page to. */
export const wcagAA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;

/** One element that breaks one axe-core rule. */
export interface AccessibilityViolation {
  rule: string;
  help: string;
  impact: string;
  /** axe-core's CSS selector of the element. */
  selector: string;
  /** The element's opening tag, as axe-core quotes it. */
  html: string;
  /** What to fix, in axe-core's words. */
  summary: string;
}

/** The page global that `axe.source` defines (the test programs are typed without the DOM library). */
type PageAxe = { run(context: unknown, options: RunOptions): Promise<AxeResults> };
declare const document: unknown;

/**
 * Runs axe-core in the page as it stands and lists every element that breaks a WCAG A/AA rule
 * (`tags` to check others). The app's CSP allows scripts from its own origin only, so a
 * `<script>` tag with axe's source would be refused; Playwright's evaluate runs the source
 * through the DevTools protocol, which the page's CSP does not govern, and axe itself needs no
 * `eval` for these rules.
 */
export async function accessibilityViolations(
  page: Page,
  tags: readonly string[] = wcagAA,
): Promise<AccessibilityViolation[]> {
  const loaded = await page.evaluate(() => "axe" in globalThis);
  if (!loaded) await page.evaluate(axeCore.source);
  const violations = await page.evaluate(
    async (values) => {
      const axe = (globalThis as unknown as { axe: PageAxe }).axe;
      const results = await axe.run(document, {
        runOnly: { type: "tag", values },
        resultTypes: ["violations"],
      });
      return results.violations.map((rule) => ({
        id: rule.id,
        help: rule.help,
        impact: rule.impact ?? "",
        nodes: rule.nodes.map((node) => ({
          target: node.target.join(" "),
          html: node.html,
          summary: node.failureSummary ?? "",
        })),
      }));
    },
    [...tags],
  );
  return violations.flatMap((rule) =>
    rule.nodes.map((node) => ({
      rule: rule.id,
      help: rule.help,
      impact: rule.impact,
      selector: node.target,
      html: node.html.length > 160 ? `${node.html.slice(0, 160)}…` : node.html,
      summary: node.summary.replace(/\s+/g, " ").trim(),
    })),
  );
}

/** One line per violation, for a failure message. */
export function describeViolation(violation: AccessibilityViolation): string {
  return `${violation.selector} — axe ${violation.rule} (${violation.impact}): ${violation.help}. ${violation.summary} ${violation.html}`;
}
