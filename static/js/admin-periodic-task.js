// The admin's periodic task form: show the chosen crontab in words under the field
// (what django-celery-beat does with an inline script, which the CSP forbids).
(function () {
  const data = document.getElementById("readable-crontabs");
  const select = document.getElementById("id_crontab");
  const help = document.querySelector(".field-crontab .help");
  if (!data || !select || !help) return;
  const readable = JSON.parse(data.textContent);
  const original = help.textContent;
  const translation = document.querySelector(".field-crontab_translation");
  if (translation) translation.hidden = true;
  const update = () => {
    const words = readable[select.value];
    help.textContent = words ? `${original} Translation: ${words}` : original;
  };
  select.addEventListener("change", update);
  update();
})();
