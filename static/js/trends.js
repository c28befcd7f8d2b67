// Draw every chart of the page from its JSON; the data tables carry the same figures.
(function () {
  if (!window.Chart) return;
  // Okabe-Ito: distinguishable with the common forms of colour blindness.
  const palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000", "#999999"];
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.color = "#1b2733";
  window.portalCharts = {};
  for (const canvas of document.querySelectorAll("canvas[data-chart]")) {
    const spec = JSON.parse(document.getElementById(canvas.dataset.chart).textContent);
    const datasets = spec.datasets.map((d, i) => ({
      label: d.label,
      data: d.data,
      backgroundColor: palette[i % palette.length],
      borderColor: palette[i % palette.length],
      borderWidth: spec.type === "line" ? 2 : 0,
      pointRadius: spec.type === "line" ? 2 : 0,
      tension: 0.2,
    }));
    window.portalCharts[spec.id] = new Chart(canvas, {
      type: spec.type,
      data: { labels: spec.labels, datasets },
      options: {
        maintainAspectRatio: false,
        indexAxis: spec.horizontal ? "y" : "x",
        animation: false,
        plugins: { legend: { display: datasets.length > 1, position: "bottom" } },
        scales: {
          x: { stacked: spec.stacked, beginAtZero: true },
          y: { stacked: spec.stacked, beginAtZero: true },
        },
      },
    });
  }
})();
