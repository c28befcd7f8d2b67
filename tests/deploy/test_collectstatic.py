"""collectstatic under the production profile: every collected file is post-processed
(hashed name in the manifest, compressed copy), so no page can fail on a missing entry."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.core.test_settings import PRODUCTION_ENV

ROOT = Path(__file__).resolve().parents[2]
TEST_ONLY = {
    "SECRET_KEY",
    "DJANGO_ENV",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "STATIC_ROOT",
    "DJANGO_SETTINGS_MODULE",
}


def test_production_storage_post_processes_every_file(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    env.update(PRODUCTION_ENV, STATIC_ROOT=str(tmp_path / "static"))
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]

    static_root = tmp_path / "static"
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    collected = {
        path.relative_to(static_root).as_posix()
        for path in static_root.rglob("*")
        if path.is_file() and path.name != "staticfiles.json"
    }
    hashed = set(manifest.values())
    originals = {
        name for name in collected if name not in hashed and not name.endswith((".gz", ".br"))
    }
    originals -= {name[: -len(".gz")] for name in collected if name.endswith(".gz")} & hashed
    # Every original file has a manifest entry whose hashed copy exists.
    unprocessed = sorted(name for name in originals if name not in manifest)
    assert unprocessed == []
    assert all((static_root / manifest[name]).is_file() for name in manifest)
    # Our own and the vendored assets are there, the source map included.
    for name in ("css/site.css", "js/site.js", "vendor/chartjs/chart.umd.min.js",
                 "vendor/chartjs/chart.umd.min.js.map", "admin/css/base.css"):  # fmt: skip
        assert name in manifest, name
    # The vendored library's map reference was rewritten to the hashed map.
    chart = (static_root / manifest["vendor/chartjs/chart.umd.min.js"]).read_text()
    assert f"sourceMappingURL={Path(manifest['vendor/chartjs/chart.umd.min.js.map']).name}" in chart
    # Text assets are compressed for whitenoise.
    assert (static_root / (manifest["css/site.css"] + ".gz")).is_file()
