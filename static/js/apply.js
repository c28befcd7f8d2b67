// The sponsorship application: the agreement on the page follows the payment chosen
// (its fee clause names it, and the server refuses an acceptance of another text), and
// the new organisation's fields step aside while an existing organisation is chosen.
(function () {
  "use strict";
  var form = document.querySelector(".apply-form");
  if (!form) return;
  var read = form.querySelector("input[name=agreement_payment]");

  function showAgreement(method) {
    var texts = document.querySelectorAll(".agreement-text[data-payment]");
    for (var i = 0; i < texts.length; i++) {
      texts[i].hidden = texts[i].getAttribute("data-payment") !== method;
    }
    if (read) read.value = method;
  }

  var radios = form.querySelectorAll("input[name=payment_method]");
  for (var i = 0; i < radios.length; i++) {
    radios[i].addEventListener("change", function (event) {
      if (event.target.checked) showAgreement(event.target.value);
    });
    // A browser that restored the form (back button) may have restored another choice.
    if (radios[i].checked) showAgreement(radios[i].value);
  }

  var organisation = form.querySelector("select[name=organisation]");
  var fields = form.querySelector(".new-organisation");
  if (organisation && fields) {
    var toggle = function () {
      fields.hidden = organisation.value !== "";
    };
    organisation.addEventListener("change", toggle);
    toggle();
  }
})();
