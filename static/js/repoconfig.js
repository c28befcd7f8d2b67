// Narrow the generator's selects to combinations that exist; the form works without this.
(function () {
  const form = document.getElementById("repo-form");
  const data = document.getElementById("repo-options");
  if (!form || !data) return;
  const options = JSON.parse(data.textContent);
  const distro = form.elements.distro;
  const release = form.elements.release;
  const version = form.elements.version;
  const arch = form.elements.arch;
  const format = form.elements.format;

  // Without a distribution or release chosen, the selects keep every server-rendered option.
  const initial = (select) => [...select.options].filter((o) => o.value).map((o) => [o.value, o.text]);
  const allReleases = initial(release);
  const allVersions = initial(version);
  const allArches = initial(arch);

  function fill(select, items, keep) {
    const previous = keep ? select.value : "";
    const first = select.options[0] && select.options[0].value === "" ? select.options[0] : null;
    select.replaceChildren(...(first ? [first] : []));
    for (const [value, label] of items) select.add(new Option(label, value));
    if ([...select.options].some((o) => o.value === previous)) select.value = previous;
  }

  function currentDistro() {
    return options.distributions.find((d) => d.slug === distro.value);
  }
  function currentRelease() {
    const d = currentDistro();
    return d && d.releases.find((r) => r.key === release.value);
  }

  function update() {
    const d = currentDistro();
    fill(release, d ? d.releases.map((r) => [r.key, r.name + (r.eol ? " (end of life)" : "")]) : allReleases, true);
    const r = currentRelease();
    fill(version, r ? r.versions.map((v) => [v.version, "MariaDB " + v.label + (v.eol ? " (end of life)" : "")]) : allVersions, true);
    const v = r && r.versions.find((x) => x.version === version.value);
    fill(arch, v ? v.architectures.map((a) => [a, a]) : allArches, true);
    format.closest("div").hidden = !(d && d.family === "apt");
  }

  distro.addEventListener("change", update);
  release.addEventListener("change", update);
  version.addEventListener("change", update);
  update();
})();
