// Draw benchmark charts from the JSON beside each canvas (the same spec as the data table
// and the server-rendered images); shaded bands show repetitions' range or a noise band.
(function () {
  // Series colours: the page's --chart-N tokens (static/css/site.css), light or dark;
  // black (--chart-8) comes last.
  const slots = [1, 2, 3, 4, 5, 6, 7, 9, 8];

  function cssVar(name, fallback) {
    const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  function alpha(hex, a) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    return `rgba(${r}, ${g}, ${b}, ${a})`;
  }

  function datasets(spec, colours) {
    const out = [];
    spec.datasets.forEach((d, i) => {
      // "colour": the run's slot in its suite (benchmarks/charts.py::palette), the same
      // on every page of the suite; charts without it colour by position
      const colour = colours[(d.colour ?? i) % colours.length];
      const isBar = spec.type === "bar";
      // A history's flagged points ("marks": changes beyond the noise) drawn larger, as
      // triangles; the data table names them too.
      const marked = (ctx) => (spec.marks || []).includes(ctx.dataIndex);
      out.push({
        label: d.label, data: d.data, borderColor: colour,
        backgroundColor: colour,
        borderWidth: 2, spanGaps: true, order: 1,
        pointRadius: (ctx) => (marked(ctx) ? 7 : 3),
        pointStyle: (ctx) => (marked(ctx) ? "triangle" : "circle"),
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
    const colours = slots.map((n) => cssVar(`--chart-${n}`, "#0072b2"));
    const ink = cssVar("--ink-muted", "#4a5866");
    const grid = cssVar("--line", "#d9dee3");
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
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const field = document.getElementById(copy.dataset.copy);
      field.select();
      navigator.clipboard.writeText(field.value).then(() => { copy.textContent = "Copied"; });
      return;
    }
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
