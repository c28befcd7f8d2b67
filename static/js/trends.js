// Draw every chart of the page from its JSON; the data tables carry the same figures.
(function () {
  if (!window.Chart) return;
  // The series colours are the page's --chart-1..9 (Okabe-Ito, distinguishable with the
  // common forms of colour blindness), light or dark as the visitor's scheme says.
  function palette() {
    const style = getComputedStyle(document.documentElement);
    return [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => style.getPropertyValue(`--chart-${n}`).trim());
  }
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

  // A withheld figure (fewer servers than the anonymity minimum) has no height: it is not
  // known. Its place on the axis gets a hatched mark, labelled "fewer than N" (stacked
  // columns: the mark alone, the table names it); the caption states the rule.
  function hatch(colour) {
    const tile = document.createElement("canvas");
    tile.width = tile.height = 8;
    const pen = tile.getContext("2d");
    pen.strokeStyle = colour;
    pen.lineWidth = 2;
    pen.beginPath();
    for (const [x0, y0, x1, y1] of [[0, 8, 8, 0], [-2, 2, 2, -2], [6, 10, 10, 6]]) {
      pen.moveTo(x0, y0);
      pen.lineTo(x1, y1);
    }
    pen.stroke();
    return pen.createPattern(tile, "repeat");
  }
  const withheldLabels = {
    id: "withheldLabels",
    afterDatasetsDraw(chart, args, options) {
      const { ctx } = chart;
      ctx.save();
      ctx.fillStyle = Chart.defaults.color;
      ctx.font = `12px ${Chart.defaults.font.family}`;
      chart.data.datasets.forEach((dataset, index) => {
        const meta = chart.getDatasetMeta(index);
        if (meta.hidden) return;
        const category = options.horizontal ? chart.scales.y : chart.scales.x;
        const value = options.horizontal ? chart.scales.x : chart.scales.y;
        const base = value.getPixelForValue(0);
        for (const point of dataset.withheldPoints || []) {
          const at = category.getPixelForValue(point);
          // Side by side (several datasets, not stacked), each mark sits under its own bar.
          const bar = meta.data[point];
          const centre = bar && Number.isFinite(options.horizontal ? bar.y : bar.x)
            ? (options.horizontal ? bar.y : bar.x) : at;
          const size = 8;
          const offset = options.stacked ? index * (size + 2) : 0;
          ctx.fillStyle = dataset.withheldPattern;
          ctx.strokeStyle = dataset.borderColor;
          ctx.lineWidth = 1;
          if (options.horizontal) {
            ctx.fillRect(base + offset, centre - size / 2, size, size);
            ctx.strokeRect(base + offset, centre - size / 2, size, size);
          } else {
            ctx.fillRect(centre - size / 2, base - size - offset, size, size);
            ctx.strokeRect(centre - size / 2, base - size - offset, size, size);
          }
          if (!options.text) continue;
          ctx.fillStyle = Chart.defaults.color;
          if (options.horizontal) {
            ctx.textAlign = "left";
            ctx.textBaseline = "middle";
            ctx.fillText(options.text, base + size + 4, centre);
          } else {
            ctx.textAlign = "center";
            ctx.textBaseline = "bottom";
            ctx.fillText(options.text, centre, base - size - 3);
          }
        }
      });
      ctx.restore();
    },
  };

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
      const bars = spec.type === "bar";
      const lastIndex = spec.labels.length - 1;
      const withheldText = `fewer than ${spec.minimum}`;
      const datasets = spec.datasets.map((d, i) => {
        const colour = colours[i % colours.length];
        const withheld = new Set(bars ? d.withheld || [] : []);
        const pattern = withheld.size ? hatch(colour) : null;
        return {
        label: d.label,
        // null on a line: withheld or not released yet, drawn as a gap (never as 0)
        data: d.data.map((value, index) => (withheld.has(index) ? null : value)),
        withheldPoints: [...withheld],
        withheldPattern: pattern,
        spanGaps: false,
        backgroundColor: bars
          ? spec.labels.map((_, index) =>
              withheld.has(index) ? pattern : spec.incomplete && index === lastIndex ? colour + "66" : colour,
            )
          : colour,
        borderColor: colour,
        borderWidth: spec.type === "line"
          ? Math.max(1.5, 4 - i * 0.75)
          : spec.labels.map((_, index) => (withheld.has(index) ? 1.5 : 0)),
        // Lines that coincide stay distinguishable: each has the dash pattern and point
        // marker the chart's spec gives it (feedback/trends/charts.py line_style), and each
        // later line is drawn on top, thinner and with smaller points, so the lines and
        // markers beneath still show around them.
        borderDash: spec.type === "line" ? d.dash || [] : [],
        pointStyle: d.point || "circle",
        pointRadius: spec.type === "line" ? Math.max(2.5, 7 - i * 1.5) : 0,
        order: count - i,
        tension: 0.2,
        };
      });
      const anyWithheld = datasets.some((dataset) => dataset.withheldPoints.length);
      // The period still under way is drawn faded (bars, above) or dashed (lines), as its
      // label says.
      if (spec.incomplete && !bars) {
        for (const dataset of datasets) {
          dataset.segment = { borderDash: (ctx) => (ctx.p1DataIndex === lastIndex ? [4, 4] : undefined) };
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
          layout: { padding: anyWithheld && !spec.stacked ? { right: spec.horizontal ? 90 : 0, top: 18 } : 0 },
          plugins: {
            withheldLabels: {
              text: anyWithheld && !spec.stacked ? withheldText : "",
              horizontal: spec.horizontal,
              stacked: Boolean(spec.stacked),
            },
            tooltip: {
              callbacks: {
                label: (item) =>
                  item.dataset.withheldPoints.includes(item.dataIndex)
                    ? `${item.dataset.label}: ${withheldText} (withheld)`
                    : `${item.dataset.label}: ${item.formattedValue}`,
              },
            },
            legend: {
              display: datasets.length > 1 || Boolean(spec.stacked),
              position: "bottom",
              labels: {
                boxWidth: 12,
                // a line's key shows its marker, as the chart draws it
                usePointStyle: spec.type === "line",
                // each series in its own colour, whatever its first bar (hatched if withheld)
                generateLabels: (chart) =>
                  Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => ({
                    ...item,
                    fillStyle: chart.data.datasets[item.datasetIndex].borderColor,
                  })),
              },
            },
          },
          scales: spec.horizontal ? { y: categoryAxis, x: valueAxis } : { x: categoryAxis, y: valueAxis },
        },
        plugins: [withheldLabels],
      });
    }
  }
  draw();
  // Redraw in the other scheme's colours when the visitor switches light or dark.
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", draw);
})();
