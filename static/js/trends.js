// Draw every chart of the page from its JSON; the data tables carry the same figures.
(function () {
  if (!window.Chart) return;
  // Okabe-Ito: distinguishable with the common forms of colour blindness.
  const palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000", "#999999"];
  const bodyStyle = getComputedStyle(document.body);
  Chart.defaults.font.family = bodyStyle.fontFamily;
  Chart.defaults.color = bodyStyle.color; // follows the page, light or dark

  // Long category labels (distributions, plugins) wrap onto several lines instead of
  // being cut off; on a phone the lines are shorter.
  function wrap(label, width) {
    const words = String(label).split(/\s+/);
    const lines = [];
    let line = "";
    for (const word of words) {
      if (line && (line + " " + word).length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line ? line + " " + word : word;
      }
    }
    if (line) lines.push(line);
    return lines.map((l) => (l.length > width ? l.slice(0, width - 1) + "…" : l));
  }

  window.portalCharts = {};
  for (const canvas of document.querySelectorAll("canvas[data-chart]")) {
    const spec = JSON.parse(document.getElementById(canvas.dataset.chart).textContent);
    const narrow = canvas.parentElement.clientWidth < 560;
    const datasets = spec.datasets.map((d, i) => ({
      label: d.label,
      data: d.data,
      backgroundColor: palette[i % palette.length],
      borderColor: palette[i % palette.length],
      borderWidth: spec.type === "line" ? 2 : 0,
      pointRadius: spec.type === "line" ? 2 : 0,
      tension: 0.2,
    }));
    const categoryAxis = {
      stacked: spec.stacked,
      ticks: {
        autoSkip: !spec.horizontal,
        callback: function (value) {
          return wrap(this.getLabelForValue(value), narrow ? 14 : 28);
        },
      },
    };
    const valueAxis = { stacked: spec.stacked, beginAtZero: true, ticks: { precision: 0 } };
    window.portalCharts[spec.id] = new Chart(canvas, {
      type: spec.type,
      data: { labels: spec.labels, datasets },
      options: {
        maintainAspectRatio: false,
        indexAxis: spec.horizontal ? "y" : "x",
        animation: false,
        plugins: { legend: { display: datasets.length > 1, position: "bottom" } },
        scales: spec.horizontal ? { y: categoryAxis, x: valueAxis } : { x: categoryAxis, y: valueAxis },
      },
    });
  }
})();
