"""Chart and table specifications for a suite: one structure feeds the canvas, the table
beside it and the image export, so they always agree."""

from collections import OrderedDict


def _x_parameter(measurements):
    """The parameter that varies across a metric's points (threads, clients...), if any."""
    keys = OrderedDict()
    for m in measurements:
        for key, value in m.parameters.items():
            keys.setdefault(key, set()).add(str(value))
    varying = [key for key, values in keys.items() if len(values) > 1]
    return varying[0] if varying else None


def suite_charts(runs):
    measurements_by_metric: dict[str, list] = OrderedDict()
    for run in runs:
        for m in run.measurements.all():
            measurements_by_metric.setdefault(m.metric, []).append((run, m))
    charts = []
    for index, (metric, pairs) in enumerate(measurements_by_metric.items()):
        x = _x_parameter([m for _, m in pairs])
        run_labels = list(OrderedDict.fromkeys(run.label for run, _ in pairs))
        unit = pairs[0][1].unit
        better = "higher is better" if pairs[0][1].higher_is_better else "lower is better"
        if x:
            xs = sorted(
                {m.parameters.get(x) for _, m in pairs}, key=lambda v: (isinstance(v, str), v)
            )
            values = {(run.label, m.parameters.get(x)): m.value for run, m in pairs}
            datasets = [
                {"label": label, "data": [values.get((label, v)) for v in xs]}
                for label in run_labels
            ]
            chart = {"type": "line", "labels": [str(v) for v in xs], "x_title": x}
            rows = [[str(v), *[values.get((label, v)) for label in run_labels]] for v in xs]
            headers = [x, *run_labels]
        else:
            datasets = [
                {
                    "label": f"{metric} ({unit})" if unit else metric,
                    "data": [m.value for _, m in pairs],
                }
            ]
            chart = {"type": "bar", "labels": [run.label for run, _ in pairs], "x_title": ""}
            rows = [[run.label, m.display or m.value] for run, m in pairs]
            headers = ["Run", f"{metric} ({unit})" if unit else metric]
        chart.update(
            id=f"chart-{index + 1}",
            data_id=f"chart-{index + 1}-data",
            key=metric,
            title=f"{metric}" + (f" ({unit})" if unit else ""),
            subtitle=better,
            y_title=unit,
            datasets=datasets,
            table={"headers": headers, "rows": rows},
        )
        charts.append(chart)
    return charts


def percent_change(a, b, higher_is_better):
    """Signed by direction: positive means run B is better than run A."""
    if a in (None, 0) or b is None:
        return None
    change = (b - a) / abs(a) * 100
    return change if higher_is_better else -change
