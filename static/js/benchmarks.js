// Draw benchmark charts from the JSON beside each canvas (the same spec as the data table
// and the server-rendered images); shaded bands show repetitions' range or a noise band.
(function () {
  const palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7f7f7f", "#999999"];
  const darkPalette = ["#56B4E9", "#E69F00", "#2fc08f", "#e09ac4", "#9fd3f5", "#ff8a4c", "#d0d0d0", "#b0b0b0"];

  function cssVar(name, fallback) {
    const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  function isDark() {
    const paper = cssVar("--paper", "#ffffff").replace("#", "");
    if (paper.length !== 6) return window.matchMedia("(prefers-color-scheme: dark)").matches;
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(paper.slice(i, i + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b < 128;
  }

  function alpha(hex, a) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    return `rgba(${r}, ${g}, ${b}, ${a})`;
  }

  function datasets(spec, colours) {
    const out = [];
    spec.datasets.forEach((d, i) => {
      const colour = colours[i % colours.length];
      const isBar = spec.type === "bar";
      out.push({
        label: d.label, data: d.data, borderColor: colour,
        backgroundColor: colour,
        borderWidth: 2, pointRadius: 3, spanGaps: true, order: 1,
      });
      const hasBand = !isBar && (d.low || []).some((v) => v !== null);
      if (hasBand) {
        out.push({ label: "band-high", data: d.high, borderWidth: 0, pointRadius: 0, fill: false, spanGaps: false, order: 2 });
        out.push({ label: "band-low", data: d.low, borderWidth: 0, pointRadius: 0, spanGaps: false, order: 2,
                   fill: "-1", backgroundColor: alpha(colour, 0.18) });
      }
    });
    return out;
  }

  function draw() {
    if (!window.Chart) return;
    const dark = isDark();
    const colours = dark ? darkPalette : palette;
    const ink = cssVar("--ink-muted", dark ? "#c8d0d8" : "#4a5866");
    const grid = cssVar("--line", dark ? "#33414d" : "#d9dee3");
    window.benchmarkCharts = window.benchmarkCharts || {};
    for (const canvas of document.querySelectorAll("canvas[data-benchmark-chart]")) {
      const id = canvas.dataset.benchmarkChart;
      if (window.benchmarkCharts[id]) window.benchmarkCharts[id].destroy();
      const source = document.getElementById(id + "-data");
      if (!source || !source.textContent.trim()) continue;
      const spec = JSON.parse(source.textContent);
      const horizontal = spec.type === "bar";
      window.benchmarkCharts[id] = new Chart(canvas, {
        type: spec.type,
        data: { labels: spec.labels, datasets: datasets(spec, colours) },
        options: {
          maintainAspectRatio: false, animation: false, indexAxis: horizontal ? "y" : "x",
          color: ink,
          plugins: {
            legend: { display: !horizontal && spec.datasets.length > 1, position: "bottom",
                      labels: { color: ink, filter: (item) => !item.text.startsWith("band-") } },
            tooltip: { filter: (item) => !item.dataset.label.startsWith("band-") },
          },
          scales: {
            x: { title: { display: !!(horizontal ? spec.unit : spec.x_title), text: horizontal ? spec.unit : spec.x_title, color: ink },
                 beginAtZero: horizontal, ticks: { color: ink }, grid: { color: grid } },
            y: { beginAtZero: !horizontal, title: { display: !horizontal && !!spec.unit, text: spec.unit, color: ink },
                 ticks: { color: ink }, grid: { color: grid } },
          },
        },
      });
    }
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-export-chart]");
    if (!button) return;
    const chart = window.benchmarkCharts && window.benchmarkCharts[button.dataset.exportChart];
    if (!chart) return;
    const link = document.createElement("a");
    link.href = chart.toBase64Image("image/png", 1);
    link.download = button.dataset.exportChart + ".png";
    link.click();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw);
  else draw();
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", draw);
})();
