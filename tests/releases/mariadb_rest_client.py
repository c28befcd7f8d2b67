"""A small client written only against the published shapes of the mariadb.org downloads
REST API (https://mariadb.org/downloads-rest-api/), the way upgrade scripts use it: find
the newest stable long-term series, its latest release, this machine's file, its checksum,
a mirror, and the download address. Nothing here knows about the portal."""

import json
import urllib.request
from urllib.error import HTTPError


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def newest_stable_lts(base):
    majors = get_json(f"{base}/rest-api/mariadb/")["major_releases"]
    stable_lts = [m["release_id"] for m in majors
                  if m["release_status"] == "Stable" and m["release_support_type"] == "Long Term Support"]  # fmt: skip
    return max(stable_lts, key=lambda v: tuple(int(p) for p in v.split(".")))


def plan_download(base, os_name="Linux", cpu="x86_64"):
    series = newest_stable_lts(base)
    releases = get_json(f"{base}/rest-api/mariadb/{series}/latest/?os={os_name}&cpu={cpu}")[
        "releases"
    ]
    version, release = next(iter(releases.items()))
    file = next(f for f in release["files"] if f["os"] == os_name and f["cpu"] == cpu)
    checksum = get_json(file["checksum_url"])["response"]["checksum"]["sha256sum"]
    mirrors = get_json(f"{base}/rest-api/mirrors")["mirror_list"]
    mirror_id = next(iter(mirrors.values()))[0]["mirror_id"]
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(f"{file['file_download_url']}?mirror={mirror_id}", timeout=10)
        location = None
    except HTTPError as redirect:
        location = redirect.headers["Location"]
    return {"series": series, "version": version, "date": release["date_of_release"],
            "file": file["file_name"], "sha256": file["checksum"]["sha256sum"],
            "checksum_endpoint_sha256": checksum, "mirror": mirror_id, "location": location}  # fmt: skip


def docker_image_versions(base):
    """What MariaDB/mariadb-docker's update.sh reads: every major release's status and
    support type, and for each the first entry of its series listing
    (``curl -fsSL $API/mariadb/$version | jq -r 'first(.releases[]).release_id'``)."""
    majors = get_json(f"{base}/rest-api/mariadb/")["major_releases"]
    versions = {}
    for major in majors:
        releases = get_json(f"{base}/rest-api/mariadb/{major['release_id']}")["releases"]
        if releases:
            versions[major["release_id"]] = next(iter(releases.values()))["release_id"]
    return versions
