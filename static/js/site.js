// Small progressive enhancements; every page works without this file.
document.documentElement.classList.add("js");

(function navigationToggle() {
  const toggle = document.querySelector(".nav-toggle");
  const nav = document.getElementById("site-nav");
  if (!toggle || !nav) return;
  nav.dataset.collapsed = "true";
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") === "true";
    toggle.setAttribute("aria-expanded", String(!open));
    nav.dataset.collapsed = String(open);
  });
})();

// Any button with data-copy-target="<element id>" copies that element's text.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy-target]");
  if (!button) return;
  const source = document.getElementById(button.dataset.copyTarget);
  if (!source) return;
  const original = button.textContent;
  try {
    // A field (the new token) copies its value, anything else its text.
    await navigator.clipboard.writeText("value" in source ? source.value : source.textContent);
    button.textContent = "Copied";
  } catch (error) {
    button.textContent = "Press Ctrl+C to copy";
    if ("select" in source) {
      source.select();
    } else {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
  }
  setTimeout(() => { button.textContent = original; }, 2000);
});

// A code block in an article that scrolls sideways becomes reachable from the keyboard
// (templates give their own <pre> blocks tabindex and a label).
(function focusableCodeBlocks() {
  for (const pre of document.querySelectorAll("pre:not([tabindex])")) {
    if (pre.scrollWidth <= pre.clientWidth) continue;
    pre.tabIndex = 0;
    pre.setAttribute("role", "region");
    pre.setAttribute("aria-label", "Code example");
  }
})();
