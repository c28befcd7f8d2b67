// Draw benchmark charts from the JSON beside each canvas; "Save as PNG" exports one.
(function () {
  function draw() {
    if (!window.Chart) return;
    const palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#999999"];
    window.benchmarkCharts = window.benchmarkCharts || {};
    for (const canvas of document.querySelectorAll("canvas[data-benchmark-chart]")) {
      const id = canvas.dataset.benchmarkChart;
      if (window.benchmarkCharts[id]) continue;
      const source = document.getElementById(id + "-data");
      if (!source || !source.textContent.trim()) continue;
      const spec = JSON.parse(source.textContent);
      window.benchmarkCharts[id] = new Chart(canvas, {
        type: spec.type,
        data: {
          labels: spec.labels,
          datasets: spec.datasets.map((d, i) => ({
            label: d.label, data: d.data, borderColor: palette[i % palette.length],
            backgroundColor: palette[i % palette.length], borderWidth: 2, pointRadius: 3, spanGaps: true,
          })),
        },
        options: {
          maintainAspectRatio: false, animation: false,
          plugins: { legend: { position: "bottom" } },
          scales: {
            x: { title: { display: !!spec.x_title, text: spec.x_title } },
            y: { beginAtZero: true, title: { display: !!spec.y_title, text: spec.y_title } },
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
})();
