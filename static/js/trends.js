// Draw every chart of the page from its JSON; the data tables carry the same figures.
(function () {
  if (!window.Chart) return;
  // The series colours are the page's --chart-1..9 (Okabe-Ito, distinguishable with the
  // common forms of colour blindness), light or dark as the visitor's scheme says.
  function palette() {
    const style = getComputedStyle(document.documentElement);
    return [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => style.getPropertyValue(`--chart-${n}`).trim());
  }
  const dashes = [[], [6, 4], [2, 3], [10, 3, 2, 3]];
  const points = ["circle", "rect", "triangle", "rectRot", "star", "crossRot"];
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;

  // Long category labels (distributions, collations, features) wrap onto several lines
  // instead of being cut off: at spaces, after "_" or "-", and only if a single piece is
  // still too long, inside it. On a phone the lines are shorter.
  function wrap(label, width) {
    const pieces = String(label).split(/(?<=[\s_-])/);
    const lines = [];
    let line = "";
    for (let piece of pieces) {
      while (piece.length > width) {
        if (line) lines.push(line.trimEnd());
        lines.push(piece.slice(0, width));
        piece = piece.slice(width);
        line = "";
      }
      if (line && (line + piece).trimEnd().length > width) {
        lines.push(line.trimEnd());
        line = piece.trimStart();
      } else {
        line += piece;
      }
    }
    if (line) lines.push(line.trimEnd());
    return lines;
  }

  window.portalCharts = {};
  function draw() {
    const colours = palette();
    const rootStyle = getComputedStyle(document.documentElement);
    Chart.defaults.color = rootStyle.getPropertyValue("--ink").trim();
    Chart.defaults.borderColor = rootStyle.getPropertyValue("--line").trim();
    for (const canvas of document.querySelectorAll("canvas[data-chart]")) {
      const spec = JSON.parse(document.getElementById(canvas.dataset.chart).textContent);
      const narrow = canvas.parentElement.clientWidth < 560;
      // On a phone a bar's label (name and share) takes two lines: give each bar room for
      // them, so that labels never run into each other.
      if (spec.horizontal && narrow) {
        const lines = Math.max(1, ...spec.labels.map((label) => wrap(label, 14).length));
        const needed = spec.labels.length * (lines * 13 + 10) + 48;
        if (canvas.parentElement.clientHeight < needed) canvas.parentElement.style.height = `${needed}px`;
      }
      const count = spec.datasets.length;
      const datasets = spec.datasets.map((d, i) => ({
        label: d.label,
        data: d.data, // null: withheld or not released yet, drawn as a gap (never as 0)
        spanGaps: false,
        backgroundColor: colours[i % colours.length],
        borderColor: colours[i % colours.length],
        borderWidth: spec.type === "line" ? Math.max(1.5, 4 - i * 0.75) : 0,
        // Lines that coincide stay distinguishable: each has its own dash and point shape,
        // and each later line is drawn on top, thinner and with smaller points, so the lines
        // and markers beneath still show around them.
        borderDash: spec.type === "line" ? dashes[i % dashes.length] : [],
        pointStyle: points[i % points.length],
        pointRadius: spec.type === "line" ? Math.max(2.5, 7 - i * 1.5) : 0,
        order: count - i,
        tension: 0.2,
      }));
      // The period still under way is drawn faded (bars) or dashed (lines), as its label says.
      if (spec.incomplete) {
        const last = spec.labels.length - 1;
        for (const dataset of datasets) {
          const colour = dataset.backgroundColor;
          dataset.backgroundColor = spec.labels.map((_, i) => (i === last ? colour + "66" : colour));
          dataset.segment = { borderDash: (ctx) => (ctx.p1DataIndex === last ? [4, 4] : undefined) };
        }
      }
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
      if (window.portalCharts[spec.id]) window.portalCharts[spec.id].destroy();
      window.portalCharts[spec.id] = new Chart(canvas, {
        type: spec.type,
        data: { labels: spec.labels, datasets },
        options: {
          maintainAspectRatio: false,
          indexAxis: spec.horizontal ? "y" : "x",
          animation: false,
          // A stacked chart always names its parts; a small colour box leaves the
          // longest label room on a 320 px phone.
          plugins: {
            legend: {
              display: datasets.length > 1 || Boolean(spec.stacked),
              position: "bottom",
              labels: { boxWidth: 12 },
            },
          },
          scales: spec.horizontal ? { y: categoryAxis, x: valueAxis } : { x: categoryAxis, y: valueAxis },
        },
      });
    }
  }
  draw();
  // Redraw in the other scheme's colours when the visitor switches light or dark.
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", draw);
})();
