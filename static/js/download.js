// The download page: on a first visit (no OS or architecture chosen yet), preselect the
// visitor's operating system and architecture from what the browser says, and mark the
// files that fit this computer. The page works the same without this file.
(function suggestFiles() {
  const form = document.getElementById("download-form");
  if (!form || form.dataset.chosen) return;

  function fromPlatform(platform, userAgent, architecture, bitness) {
    const text = `${platform} ${userAgent}`.toLowerCase();
    const os = text.includes("win") ? "windows" : text.includes("linux") ? "linux" : "";
    let arch = "";
    if (architecture === "arm" || /aarch64|arm64/.test(text)) arch = "aarch64";
    else if (architecture === "x86" && bitness === "32") arch = "x86";
    else if (architecture === "x86" || /x86_64|x64|amd64|wow64|win64/.test(text)) arch = "x86_64";
    return { os, arch };
  }

  function apply({ os, arch }) {
    const osSelect = form.querySelector("#os");
    const archSelect = form.querySelector("#arch");
    if (os && osSelect.querySelector(`option[value="${os}"]`)) osSelect.value = os;
    if (arch && archSelect.querySelector(`option[value="${arch}"]`)) archSelect.value = arch;
    for (const row of document.querySelectorAll(".file-table tr[data-os]")) {
      const fits = os && row.dataset.os === os && (!arch || row.dataset.arch === arch);
      row.classList.toggle("is-suggested", Boolean(fits));
      const badge = row.querySelector(".badge-suggested");
      if (badge) badge.hidden = !fits;
    }
  }

  const data = navigator.userAgentData;
  const platform = (data && data.platform) || navigator.platform || "";
  apply(fromPlatform(platform, navigator.userAgent, "", ""));
  if (data && data.getHighEntropyValues) {
    data.getHighEntropyValues(["architecture", "bitness"]).then((values) => {
      apply(fromPlatform(platform, navigator.userAgent, values.architecture, values.bitness));
    }).catch(() => {});
  }
})();
