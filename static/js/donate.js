// The donation form says on its button exactly what will be charged, and typing an
// amount selects "Another amount" (picking a preset clears the typed amount), so the
// form never holds two amounts. The server refuses a form that still does.
const form = document.querySelector("[data-donate-form]");
if (form) {
  const typed = form.querySelector("[data-custom-amount]");
  const button = form.querySelector("[data-give-button]");
  const symbolsScript = document.getElementById("currency-symbols");
  const symbols = symbolsScript ? JSON.parse(symbolsScript.textContent) : {};
  const presets = form.querySelectorAll('input[name="preset"]');
  const custom = form.querySelector('input[name="preset"][value="custom"]');

  const minimum = Number.parseFloat(typed.min);
  const maximum = Number.parseFloat(typed.max);

  // Only an amount the server takes is named on the button (whole cents, within bounds);
  // anything else leaves it saying "Give", and the server's message explains.
  const formatted = (value, currency) => {
    const text = String(value).trim();
    if (!/^\d+(\.\d{1,2})?$/.test(text)) return "";
    const amount = Number.parseFloat(text);
    if (!(amount >= minimum && amount <= maximum)) return "";
    const cents = Math.round(amount * 100) % 100 !== 0;
    const number = amount.toLocaleString("en", {
      minimumFractionDigits: cents ? 2 : 0,
      maximumFractionDigits: 2,
    });
    const prefix = symbols[currency];
    return prefix === undefined ? "" : `${prefix}${number}`;
  };

  const update = () => {
    const chosen = form.querySelector('input[name="preset"]:checked');
    const currency = form.querySelector('[name="currency"]').value;
    const monthly = form.querySelector('input[name="frequency"]:checked')?.value === "monthly";
    const value = chosen && chosen.value !== "custom" ? chosen.value : typed.value;
    const amount = chosen ? formatted(value, currency) : "";
    button.textContent = amount ? `Give ${amount} ${monthly ? "every month" : "once"}` : "Give";
  };

  typed.addEventListener("input", () => {
    if (typed.value.trim() !== "" && custom) custom.checked = true;
    update();
  });
  presets.forEach((radio) => {
    radio.addEventListener("change", () => {
      if (radio !== custom) typed.value = "";
      else typed.focus();
      update();
    });
  });
  form.addEventListener("change", update);
  update();
}
