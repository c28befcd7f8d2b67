// The download page. The Release, Operating system, Architecture and Package selects only
// offer what has a file, and follow the Series (and each other) as they change, from the
// data the page carries (#download-offer, written by releases.forms.DownloadChoice.offer):
// no request is made. On a first visit (no OS or architecture in the address) the
// visitor's OS and architecture are preselected when the release has a file for them, and
// the page says so when it has not, naming the newest release that has. Without this
// file the server makes the same choice when the form is sent.
(function downloadChoices() {
  const form = document.getElementById("download-form");
  const data = document.getElementById("download-offer");
  if (!form || !data) return;
  const offer = JSON.parse(data.textContent);
  const select = (id) => form.querySelector(`#${id}`);
  const series = select("series");
  const release = select("release");
  const os = select("os");
  const arch = select("arch");
  const pkg = select("package");
  const status = document.getElementById("choice-status");
  const shownRelease = release.value;
  let suggestion = null;

  // Replace a select's options; keep `wanted` when it is still offered, else "All" (or the
  // default). Returns whether `wanted` was kept.
  function fill(element, options, wanted, fallback) {
    const all = element.querySelector('option[value=""]');
    element.replaceChildren(...(all ? [all] : []));
    for (const [value, label] of options) element.append(new Option(label, value));
    const kept = options.some(([value]) => value === wanted);
    element.value = kept ? wanted : fallback;
    return kept;
  }

  function downloadUrl(version, platform) {
    const query = new URLSearchParams({ series: offer.releases[version].series, release: version });
    for (const [name, value] of Object.entries(platform)) if (value) query.set(name, value);
    return `${offer.download}?${query}`;
  }

  function newestWith(osValue, archValue) {
    const fits = Object.entries(offer.releases).filter(([, r]) =>
      r.files.some(([o, a]) => o === osValue && (!archValue || a === archValue)));
    const stable = fits.find(([, r]) => r.ga);
    return (stable || fits[0] || [null])[0];
  }

  function say(notes) {
    status.replaceChildren();
    for (const note of notes) {
      const p = document.createElement("p");
      p.textContent = note.text;
      if (note.href) {
        const link = document.createElement("a");
        link.href = note.href;
        link.textContent = note.linkText;
        p.append(" ", link);
      }
      status.append(p);
    }
  }

  // Make every select below `changed` consistent with the ones above it.
  function follow(changed) {
    const notes = [];
    if (changed === "series") {
      const chosen = offer.series[series.value];
      const options = chosen.releases.map((v) => [v, offer.releases[v].label]);
      fill(release, options, chosen.default, chosen.default);
    }
    const version = release.value;
    const files = offer.releases[version].files;
    const osWanted = os.value;
    const osOffered = Object.entries(offer.os).filter(([v]) => files.some((f) => f[0] === v));
    if (!fill(os, osOffered, osWanted, "") && osWanted) {
      notes.push({ text: `MariaDB ${version} has no ${offer.os[osWanted]} file: Operating system is back to All.` });
    }
    const osFiles = files.filter((f) => !os.value || f[0] === os.value);
    const archWanted = arch.value;
    const arches = [...new Set(osFiles.map((f) => f[1]).filter(Boolean))].sort().map((a) => [a, a]);
    if (!fill(arch, arches, archWanted, "") && archWanted) {
      notes.push({ text: `MariaDB ${version} has no ${os.value ? `${offer.os[os.value]} ` : ""}file built for ${archWanted}: Architecture is back to All.` });
    }
    const archFiles = osFiles.filter((f) => !arch.value || f[1] === arch.value || f[1] === "");
    const pkgWanted = pkg.value;
    const packages = Object.entries(offer.package).filter(([v]) => archFiles.some((f) => f[2] === v));
    if (!fill(pkg, packages, pkgWanted, "") && pkgWanted) {
      notes.push({ text: `MariaDB ${version} has no ${offer.package[pkgWanted]} for this choice: Package is back to All.` });
    }
    if (version !== shownRelease) {
      notes.push({ text: `Choose Show files to list the files of MariaDB ${version}.` });
    } else if (suggestion) {
      notes.push(suggestion);
    }
    say(notes);
  }

  for (const element of [series, release, os, arch, pkg]) {
    element.addEventListener("change", () => {
      suggestion = null;
      follow(element.id);
    });
  }

  // A first visit: the visitor's platform, when the release has a file for it.
  if (form.dataset.chosen) return;

  function fromPlatform(platform, userAgent, architecture, bitness) {
    const text = `${platform} ${userAgent}`.toLowerCase();
    const osName = text.includes("win") ? "windows" : text.includes("linux") ? "linux" : "";
    let archName = "";
    if (architecture === "arm" || /aarch64|arm64/.test(text)) archName = "aarch64";
    else if (architecture === "x86" && bitness === "32") archName = "x86";
    else if (architecture === "x86" || /x86_64|x64|amd64|wow64|win64/.test(text)) archName = "x86_64";
    return { osName, archName };
  }

  function markRows(osName, archName) {
    for (const row of document.querySelectorAll(".file-table tr[data-os]")) {
      const fits = osName && row.dataset.os === osName && (!archName || row.dataset.arch === archName);
      row.classList.toggle("is-suggested", Boolean(fits));
      const badge = row.querySelector(".badge-suggested");
      if (badge) badge.hidden = !fits;
    }
  }

  function apply({ osName, archName }) {
    if (!osName || release.value !== shownRelease) return;
    const files = offer.releases[release.value].files;
    const fits = files.some(([o, a]) => o === osName && (!archName || a === archName));
    if (fits) {
      suggestion = null;
      os.value = osName;
      follow("os");
      if (archName && [...arch.options].some((o) => o.value === archName)) arch.value = archName;
      follow("arch");
      markRows(osName, arch.value);
      return;
    }
    const platform = `${offer.os[osName]}${archName ? ` ${archName}` : ""}`;
    const other = newestWith(osName, archName);
    suggestion = {
      text: `MariaDB ${release.value} has no ${platform} file for this computer, so every file is listed.`,
      ...(other ? { href: downloadUrl(other, { os: osName, arch: archName }), linkText: `The newest release with one is ${other}.` } : {}),
    };
    markRows("", "");
    follow("release");
  }

  const agentData = navigator.userAgentData;
  const platform = (agentData && agentData.platform) || navigator.platform || "";
  apply(fromPlatform(platform, navigator.userAgent, "", ""));
  if (agentData && agentData.getHighEntropyValues) {
    agentData.getHighEntropyValues(["architecture", "bitness"]).then((values) => {
      apply(fromPlatform(platform, navigator.userAgent, values.architecture, values.bitness));
    }).catch(() => {});
  }
})();
