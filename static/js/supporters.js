// Each tier's logo height comes from the page as data (no inline style, which the
// Content-Security-Policy forbids); without script, logos keep the default height.
document.querySelectorAll("[data-logo-height]").forEach((item) => {
  const height = Number.parseInt(item.dataset.logoHeight, 10);
  if (height > 0) item.style.setProperty("--logo-height", `${height}px`);
});
