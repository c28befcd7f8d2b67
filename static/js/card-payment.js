// The card payment of a pay page (a sponsorship, a gift). The card is typed into
// Stripe.js's card element and goes from this browser to Stripe only: the requests this
// script makes to the site carry the page's own fields and Stripe's ids, never the card.
//
// 1. "setup": the site makes a SetupIntent; Stripe.js confirms it with the card
//    (confirmCardSetup, which may ask for 3-D Secure);
// 2. "pay": the site charges the card Stripe attached to it; when Stripe asks for
//    3-D Secure, confirmCardPayment asks the payer, then
// 3. "check": the site asks Stripe where the payment stands.
// The site answers with the next page (paid, or processing) or with an error, shown here
// with the form kept. One click pays once: the button is disabled until an answer.
// A block of its own: the page's other scripts have a "form" too.
(() => {
  const form = document.querySelector("[data-card-payment]");
  if (!form || typeof Stripe !== "function") return;
  const stripe = Stripe(form.dataset.stripeKey);
  // The card field in the page's own colours (light or dark), as far as Stripe lets it.
  const look = getComputedStyle(form);
  const card = stripe
    .elements()
    .create("card", { style: { base: { color: look.color, fontSize: "16px" } } });
  card.mount(form.querySelector("[data-card-element]"));
  const button = form.querySelector("[data-pay-button]");
  const error = form.querySelector("[data-card-error]");
  const status = form.querySelector("[data-card-status]");
  const invoice = document.querySelector("[data-invoice-instead]");
  let busy = false;

  const show = (message) => {
    error.textContent = message;
    error.hidden = !message;
  };
  const working = (on, message = "") => {
    busy = on;
    button.disabled = on;
    button.setAttribute("aria-busy", on ? "true" : "false");
    status.textContent = message;
  };

  const ask = async (stage, extra = {}) => {
    const body = new FormData(form);
    body.set("stage", stage);
    Object.entries(extra).forEach(([name, value]) => body.set(name, value));
    const response = await fetch(form.dataset.cardUrl, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    try {
      return await response.json();
    } catch {
      return { error: "The site could not answer. Nothing more was sent; please try again." };
    }
  };

  const finish = (answer) => {
    if (answer.next) {
      window.location.assign(answer.next);
      return;
    }
    if (answer.invalid) {
      // The form itself has mistakes: the page sends it as a plain form and shows them.
      form.submit();
      return;
    }
    if (answer.offer_invoice && invoice) invoice.hidden = false;
    working(false);
    show(answer.error || "The payment was not completed. Nothing was taken.");
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    working(true, "Paying…");
    show("");
    try {
      const setup = await ask("setup");
      if (!setup.client_secret) return finish(setup);
      const confirmed = await stripe.confirmCardSetup(setup.client_secret, {
        payment_method: { card },
      });
      if (confirmed.error) {
        return finish({ error: `${confirmed.error.message} Nothing was taken.` });
      }
      const setupIntent = confirmed.setupIntent.id;
      let answer = await ask("pay", { setup_intent: setupIntent });
      if (answer.status === "requires_action") {
        // Stripe.js asks the payer; the site then reads the outcome from Stripe.
        await stripe.confirmCardPayment(answer.client_secret);
        answer = await ask("check", { setup_intent: setupIntent });
      }
      finish(answer);
    } catch {
      finish({
        error:
          "The connection failed before the payment was complete. Before trying again, " +
          "look for Stripe's receipt in your e-mail (or on your dashboard).",
      });
    }
  });
})();
