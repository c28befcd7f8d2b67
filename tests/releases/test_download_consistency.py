"""/download/ offers only series, releases, operating systems, architectures and package
types that have a file, preselects the newest release that has one, and says why when it
departs from what was asked or from its series' newest release. The form works without
JavaScript: sending it after changing only the series gives a consistent choice."""

import json
import re

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from tests.releases.file_names import LINUX, MSI

pytestmark = pytest.mark.django_db


def options(response, select):
    """The (value, selected) pairs of one select of the form, in order."""
    html = response.content.decode()
    start = html.index(f'<select id="{select}"')
    part = html[start : html.index("</select>", start)]
    return [
        (value, bool(selected))
        for value, selected in re.findall(r'<option value="([^"]*)"( selected)?>', part)
    ]


def selected(response, select):
    """The value a browser shows: the option marked selected, else the first."""
    offered = options(response, select)
    return next((value for value, chosen in offered if chosen), offered[0][0])


def notice(*lines):
    paragraphs = "".join(f"<p>{line}</p>" for line in lines)
    return f'<div class="notice" role="status" id="ignored-choices">{paragraphs}</div>'


def test_only_what_has_a_file_is_offered(client, demo_like):
    response = client.get("/download/")
    assert [v for v, _ in options(response, "series")] == ["12.3", "11.8"]
    assert selected(response, "release") == "12.3.3"
    # 12.3.3 has no Linux file: Linux is not offered, nor any architecture but x86_64.
    assert options(response, "os") == [("", False), ("source", False), ("windows", False)]
    assert options(response, "arch") == [("", False), ("x86_64", False)]
    assert [v for v, _ in options(response, "package")] == ["", "tar.gz", "msi"]
    assertNotContains(response, 'id="ignored-choices"')


def test_the_newest_release_with_files_is_chosen_and_the_page_says_why(client, demo_like):
    response = client.get("/download/", {"series": "11.8"})
    assert options(response, "release") == [("11.8.9", True)]
    assertContains(
        response,
        notice(
            "MariaDB 11.8.10, the newest release of MariaDB 11.8, has no files on this site "
            "yet: showing 11.8.9, the newest that has."
        ),
        html=True,
    )
    assertContains(response, f'<code class="wrap">{LINUX}</code>', html=True)
    asked = client.get("/download/", {"series": "11.8", "release": "11.8.10"})
    assertContains(
        asked,
        notice("MariaDB 11.8.10 has no files on this site yet: showing 11.8.9 instead."),
        html=True,
    )
    no_files = client.get("/download/", {"series": "10.0"})
    assertContains(
        no_files,
        notice("MariaDB 10.0 has no files on this site yet: showing MariaDB 12.3 instead."),
        html=True,
    )


def test_a_platform_the_release_has_no_file_for_is_named_with_where_to_find_one(client, demo_like):
    response = client.get("/download/", {"os": "linux", "arch": "x86_64"})
    assert selected(response, "os") == ""
    assertContains(
        response,
        notice(
            "MariaDB 12.3.3 has no Linux (generic) file: showing the files for every operating "
            'system. <a href="/download/?series=11.8&amp;release=11.8.9&amp;os=linux&amp;'
            'arch=x86_64">The newest release with one is 11.8.9.</a>'
        ),
        html=True,
    )
    assertNotContains(response, "No files match")
    assertContains(response, f'<code class="wrap">{MSI}</code>', html=True)


def test_sending_the_form_after_changing_only_the_series_gives_a_consistent_choice(
    client, demo_like
):
    """Without JavaScript the release, OS, architecture and package of the page before
    come along with the new series; the answer follows the series and says what changed."""
    response = client.get(
        "/download/",
        {"series": "11.8", "release": "12.3.3", "os": "windows", "arch": "x86_64",
         "package": "msi", "mirror": "agdsn"},
    )  # fmt: skip
    assert selected(response, "series") == "11.8"
    assert options(response, "release") == [("11.8.9", True)]
    assert [v for v, _ in options(response, "os")] == ["", "source", "linux"]
    assert selected(response, "os") == ""
    assert options(response, "arch") == [("", False), ("x86_64", True)]
    assert [v for v, _ in options(response, "package")] == ["", "tar.gz", "bintar"]
    assert selected(response, "package") == ""
    assertContains(
        response,
        notice(
            "“12.3.3” is not a published release of MariaDB 11.8: showing 11.8.9 instead.",
            "MariaDB 11.8.9 has no Windows file: showing the files for every operating system. "
            '<a href="/download/?series=12.3&amp;release=12.3.3&amp;os=windows&amp;arch=x86_64">'
            "The newest release with one is 12.3.3.</a>",
            "MariaDB 11.8.9 has no MSI installer for this choice: showing every package type.",
        ),
        html=True,
    )
    assertContains(response, f'<code class="wrap">{LINUX}</code>', html=True)


def test_the_page_carries_what_its_script_needs_to_follow_the_series(client, demo_like):
    response = client.get("/download/")
    html = response.content.decode()
    start = html.index('<script id="download-offer" type="application/json">')
    offer = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    assert offer["series"] == {
        "12.3": {"releases": ["12.3.3"], "default": "12.3.3"},
        "11.8": {"releases": ["11.8.9"], "default": "11.8.9"},
    }
    assert offer["releases"]["11.8.9"]["files"] == [
        ["linux", "x86_64", "bintar"],
        ["source", "", "tar.gz"],
    ]
    assert "11.8.10" not in offer["releases"]
