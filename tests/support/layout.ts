import type { Page } from "playwright-core";

/** One thing wrong with how a page is laid out: where, and what. */
export interface LayoutProblem {
  /** A CSS-like path to the element, with the start of its text. */
  selector: string;
  problem: string;
}

/*
 * What the probes below use of the browser's DOM: they are functions that run in the page (a
 * string would need `eval`, which the app's CSP forbids), and the test programs are typed without
 * the DOM library.
 */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface Style {
  display: string;
  visibility: string;
  position: string;
  overflowX: string;
  overflowY: string;
  textOverflow: string;
  webkitLineClamp: string;
  clip: string;
  clipPath: string;
  opacity: string;
}
interface Element {
  tagName: string;
  id: string;
  textContent: string | null;
  parentElement: Element | null;
  children: ArrayLike<Element>;
  scrollWidth: number;
  clientWidth: number;
  clientHeight: number;
  clientLeft: number;
  clientTop: number;
  complete?: boolean;
  loading?: string;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  closest(selector: string): Element | null;
}
interface TextNode {
  textContent: string | null;
  parentElement: Element | null;
}
interface Animation {
  playState: string;
  effect: { getComputedTiming(): { iterations?: number } } | null;
}
declare const document: {
  documentElement: Element;
  body: Element;
  fonts: { status: string };
  querySelectorAll(selector: string): ArrayLike<Element>;
  createTreeWalker(root: Element, whatToShow: number): { nextNode(): TextNode | null };
  createRange(): { selectNodeContents(node: TextNode): void; getClientRects(): ArrayLike<Box> };
  getAnimations(): Animation[];
};
declare const window: { innerHeight: number };
declare function getComputedStyle(element: Element): Style;

/**
 * Until the page has nothing left to load or animate: no request in flight, no spinner, skeleton
 * or busy region on screen, web fonts and images (but lazy ones far below the fold) loaded, and no
 * finite animation running. Call `trackRequests` when the page is opened.
 */
export async function pageSettled(page: Page, requests: RequestTracker): Promise<void> {
  for (;;) {
    await requests.idle();
    await page.waitForFunction(() => {
      const visible = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden";
      };
      const loading = Array.from(
        document.querySelectorAll('.chakra-spinner, .chakra-skeleton, [aria-busy="true"], [data-loading]'),
      ).some(visible);
      const images = Array.from(document.querySelectorAll("img")).every(
        (image) =>
          image.complete === true ||
          (image.loading === "lazy" && image.getBoundingClientRect().top > window.innerHeight + 3000),
      );
      const animating = document
        .getAnimations()
        .some(
          (animation) =>
            animation.playState === "running" && animation.effect?.getComputedTiming().iterations !== Infinity,
        );
      return !loading && images && !animating && document.fonts.status === "loaded";
    });
    // Rendering what arrived may have asked for more (a dependent query, a lazy chunk).
    if (requests.inFlight() === 0) return;
  }
}

export interface RequestTracker {
  inFlight(): number;
  /** Resolves when no request of the page is in flight. */
  idle(): Promise<void>;
}

/** Counts the page's requests in flight, so tests wait on the network going quiet, never on a clock. */
export function trackRequests(page: Page): RequestTracker {
  const pending = new Set<unknown>();
  let waiters: (() => void)[] = [];
  const settle = (request: unknown) => {
    pending.delete(request);
    if (pending.size > 0) return;
    for (const wake of waiters) wake();
    waiters = [];
  };
  page.on("request", (request) => pending.add(request));
  page.on("requestfinished", settle);
  page.on("requestfailed", settle);
  return {
    inFlight: () => pending.size,
    idle: () =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiters.push(resolve);
          }),
  };
}

/**
 * Everything on the page as laid out now that a person would see as broken:
 * - the document scrolls sideways;
 * - an element wider than the viewport, or sticking out past its left or right edge (unless a
 *   container clips or scrolls it);
 * - an element sticking out of its container sideways (a button past its card's edge);
 * - an image or icon larger than its container, or an icon drawn at more than 4× its design size
 *   (a 24-unit calendar icon rendered 300 px tall);
 * - text cut off by a container that hides its overflow, unless truncation is intended
 *   (`text-overflow: ellipsis` or a line clamp).
 * Visually hidden elements (screen-reader text) are left out. Each element is reported once, the
 * outermost one when a whole subtree overflows.
 */
export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const tolerance = 1;
    const problems: { selector: string; problem: string }[] = [];
    const root = document.documentElement;
    const viewportWidth = root.clientWidth;

    const describe = (element: Element) => {
      const path: string[] = [];
      let current: Element | null = element;
      while (current && current !== document.body && path.length < 4) {
        const tag = current.tagName.toLowerCase();
        const testId = current.getAttribute("data-testid");
        const label = current.getAttribute("aria-label");
        const role = current.getAttribute("role");
        let segment = tag;
        if (current.id) segment += `#${current.id}`;
        else if (testId) segment += `[data-testid="${testId}"]`;
        else if (label) segment += `[aria-label="${label}"]`;
        else if (role) segment += `[role="${role}"]`;
        else {
          const siblings: Element[] = current.parentElement ? Array.from(current.parentElement.children) : [];
          const sameTag = siblings.filter((sibling) => sibling.tagName === current?.tagName);
          if (sameTag.length > 1) segment += `:nth-of-type(${sameTag.indexOf(current) + 1})`;
        }
        path.unshift(segment);
        if (current.id || testId) break;
        current = current.parentElement;
      }
      const text = (element.textContent ?? "").replace(/\s+/g, " ").trim();
      const quoted = text ? ` "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"` : "";
      return `${path.join(" > ")}${quoted}`;
    };
    const px = (value: number) => `${Math.round(value)}px`;

    /** Screen-reader-only and clipped-away elements are not seen, so they cannot overflow. */
    const hiddenCache = new Map<Element, boolean>();
    const unseen = (element: Element): boolean => {
      const cached = hiddenCache.get(element);
      if (cached !== undefined) return cached;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const hiddenHere =
        style.visibility === "hidden" ||
        style.opacity === "0" ||
        (style.clip !== "auto" && style.clip !== "") ||
        (style.clipPath !== "none" && style.clipPath !== "") ||
        (style.position === "absolute" && box.width <= 1 && box.height <= 1);
      const result = hiddenHere || (element.parentElement ? unseen(element.parentElement) : false);
      hiddenCache.set(element, result);
      return result;
    };
    const clips = (style: Style, axis: "x" | "y") => {
      const overflow = axis === "x" ? style.overflowX : style.overflowY;
      return overflow !== "visible";
    };
    /** The nearest ancestor that lays the element out (inline and `display: contents` boxes do not). */
    const container = (element: Element): Element | null => {
      let parent = element.parentElement;
      while (parent && ["contents", "inline"].includes(getComputedStyle(parent).display)) parent = parent.parentElement;
      return parent;
    };
    /** An ancestor clips or scrolls it sideways and sits inside the viewport itself. */
    const containedSideways = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== root; parent = parent.parentElement) {
        if (parent === document.body) return false;
        if (!clips(getComputedStyle(parent), "x")) continue;
        const box = parent.getBoundingClientRect();
        if (box.left >= -tolerance && box.right <= viewportWidth + tolerance) return true;
      }
      return false;
    };

    if (root.scrollWidth > root.clientWidth) {
      problems.push({
        selector: "html",
        problem: `the page scrolls sideways: ${px(root.scrollWidth)} wide in a ${px(root.clientWidth)} viewport`,
      });
    }

    const reported = new Set<Element>();
    const elements = Array.from(document.querySelectorAll("body *"));
    for (const element of elements) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (unseen(element)) continue;
      const style = getComputedStyle(element);
      const parent = element.parentElement;
      const parentReported = parent !== null && reported.has(parent);
      const report = (problem: string) => {
        reported.add(element);
        if (!parentReported) problems.push({ selector: describe(element), problem });
      };

      if (box.width > viewportWidth + tolerance && !containedSideways(element)) {
        report(`${px(box.width)} wide, wider than the ${px(viewportWidth)} viewport`);
        continue;
      }
      if ((box.right > viewportWidth + tolerance || box.left < -tolerance) && !containedSideways(element)) {
        const side =
          box.left < -tolerance ? `${px(-box.left)} past the left` : `${px(box.right - viewportWidth)} past the right`;
        report(`sticks out ${side} edge of the ${px(viewportWidth)} viewport`);
        continue;
      }

      const holder = container(element);
      const fixedOrAbsolute = style.position === "absolute" || style.position === "fixed";
      if (holder && holder !== document.body && !fixedOrAbsolute) {
        const outer = holder.getBoundingClientRect();
        const holderStyle = getComputedStyle(holder);
        const past = Math.max(box.right - outer.right, outer.left - box.left);
        if (past > tolerance && !clips(holderStyle, "x")) {
          report(`sticks out of its container (${describe(holder)}) by ${px(past)}`);
          continue;
        }
      }

      const tag = element.tagName.toLowerCase();
      const graphic = tag === "img" || (tag === "svg" && !element.parentElement?.closest("svg"));
      if (graphic && holder && holder !== document.body) {
        const outer = holder.getBoundingClientRect();
        if (box.width > outer.width + tolerance || box.height > outer.height + tolerance) {
          report(
            `${tag} ${px(box.width)}×${px(box.height)} is larger than its container ${px(outer.width)}×${px(outer.height)}`,
          );
          continue;
        }
      }
      if (tag === "svg") {
        const viewBox = (element.getAttribute("viewBox") ?? "")
          .trim()
          .split(/[\s,]+/)
          .map(Number);
        const designWidth = viewBox[2] ?? 0;
        const designHeight = viewBox[3] ?? 0;
        const icon = designWidth > 0 && designHeight > 0 && Math.max(designWidth, designHeight) <= 48;
        if (icon && (box.width > designWidth * 4 || box.height > designHeight * 4)) {
          report(
            `icon drawn at ${px(box.width)}×${px(box.height)}, more than 4× its ${designWidth}×${designHeight} design`,
          );
        }
      }
    }

    // Text: each run of text against every ancestor that hides what overflows it.
    const textNodes = document.createTreeWalker(document.body, 4);
    for (let node = textNodes.nextNode(); node; node = textNodes.nextNode()) {
      const text = (node.textContent ?? "").trim();
      const owner = node.parentElement;
      if (!text || !owner || unseen(owner)) continue;
      if (["script", "style", "noscript", "option", "title"].includes(owner.tagName.toLowerCase())) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = Array.from(range.getClientRects()).filter((line) => line.width > 0 && line.height > 0);
      if (lines.length === 0) continue;
      const extent = {
        left: Math.min(...lines.map((line) => line.left)),
        right: Math.max(...lines.map((line) => line.right)),
        top: Math.min(...lines.map((line) => line.top)),
        bottom: Math.max(...lines.map((line) => line.bottom)),
      };
      let truncationIntended = false;
      for (let ancestor: Element | null = owner; ancestor && ancestor !== root; ancestor = ancestor.parentElement) {
        const style = getComputedStyle(ancestor);
        if (style.textOverflow === "ellipsis" || (style.webkitLineClamp !== "none" && style.webkitLineClamp !== "")) {
          truncationIntended = true;
        }
        const hidesX = ["hidden", "clip"].includes(style.overflowX);
        const hidesY = ["hidden", "clip"].includes(style.overflowY);
        if (!hidesX && !hidesY) continue;
        if (truncationIntended) break;
        const box = ancestor.getBoundingClientRect();
        const inner = {
          left: box.left + ancestor.clientLeft,
          right: box.left + ancestor.clientLeft + ancestor.clientWidth,
          top: box.top + ancestor.clientTop,
          bottom: box.top + ancestor.clientTop + ancestor.clientHeight,
        };
        const cutX = hidesX ? Math.max(extent.right - inner.right, inner.left - extent.left) : 0;
        const cutY = hidesY ? Math.max(extent.bottom - inner.bottom, inner.top - extent.top) : 0;
        if (cutX > tolerance || cutY > tolerance) {
          const how = cutX > tolerance ? `${px(cutX)} sideways` : `${px(cutY)} vertically`;
          const quoted = text.length > 40 ? `${text.slice(0, 40)}…` : text;
          problems.push({
            selector: describe(owner),
            problem: `text "${quoted}" is cut off ${how} by ${describe(ancestor)}, which hides its overflow`,
          });
          break;
        }
      }
    }
    return problems;
  });
}
