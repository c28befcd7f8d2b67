"""What a browser walk checks on each page: reflow at a phone width, and axe-core.

A plain module (not conftest) so that the walks import it explicitly."""

from pathlib import Path

import axe_playwright_python

AXE_SOURCE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
WIDTHS = (320, 390)
# axe's findings (contrast, names, roles) do not change between two phone widths; reflow
# does, so every width is measured and axe runs at the narrowest.
AXE_WIDTH = WIDTHS[0]
SCHEMES = ("light", "dark")
BLOCKING = {"serious", "critical"}
AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}"""
# Collects the page's Content-Security-Policy violations in window.__csp (an init script).
LISTEN_FOR_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""
# What sticks out past the viewport, no scrolling ancestor containing it: the innermost
# elements, and text (a long word or path) that overflows its element.
OVERFLOW = """() => {
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth <= width) return null;
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    [...el.classList].map((c) => "." + c).join("");
  const sticking = [...document.body.querySelectorAll("*")].filter((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.right > width + 0.5 && !clipped(el);
  });
  const found = sticking.filter((el) => !sticking.some((o) => o !== el && el.contains(o)))
    .map((el) => `${name(el.parentElement)} > ${name(el)} (right edge ${Math.round(el.getBoundingClientRect().right)} px)`);
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (texts.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(texts.currentNode);
    const right = range.getBoundingClientRect().right;
    if (right > width + 0.5 && !clipped(texts.currentNode)) {
      found.push(`text in ${name(texts.currentNode.parentElement)} "${texts.currentNode.textContent.trim().slice(0, 40)}" (right edge ${Math.round(right)} px)`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, elements: found.slice(0, 8)};
}"""


def audit(page, label, width, screenshot=None):
    """Reflow (light scheme) on the page already loaded, and at AXE_WIDTH axe in both
    schemes.

    Returns (overflow findings, blocking axe findings, axe runs); ``screenshot``, if
    given, is a path prefix for one picture per scheme."""
    overflowing, violations = [], []
    page.emulate_media(color_scheme="light")
    wide = page.evaluate(OVERFLOW)
    if wide:
        overflowing.append(f"{label} at {width} px is {wide['scrollWidth']} px wide: "
                           + "; ".join(wide["elements"]))  # fmt: skip
    runs = 0
    if width == AXE_WIDTH:
        page.evaluate(AXE_SOURCE)
    for scheme in SCHEMES:
        if width == AXE_WIDTH:
            page.emulate_media(color_scheme=scheme)
            runs += 1
            for v in page.evaluate(AXE_RUN):
                if v["impact"] in BLOCKING:
                    violations.append(f"{label} {width} px {scheme}: {v['id']} ({v['impact']}) "
                                      f"{v['help']} at {v['targets']}")  # fmt: skip
        if screenshot:
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=f"{screenshot}-{width}-{scheme}.png", full_page=True)
    return overflowing, violations, runs
