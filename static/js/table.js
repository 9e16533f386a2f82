// The live table's small client side: the countdown ticks between pushes, the error line
// fades, and a banner shows while the WebSocket is reconnecting. Everything else is htmx.
(function () {
  "use strict";

  function stamp(root) {
    root.querySelectorAll(".countdown[data-ends-in]").forEach(function (el) {
      if (!el.dataset.t0) el.dataset.t0 = String(Date.now());
    });
  }

  function tick() {
    document.querySelectorAll(".countdown[data-ends-in]").forEach(function (el) {
      var t0 = Number(el.dataset.t0 || Date.now());
      var left = Math.max(0, Math.ceil(Number(el.dataset.endsIn) - (Date.now() - t0) / 1000));
      el.textContent = String(left);
      el.classList.toggle("is-low", left <= 5);
    });
  }

  var errorTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target) return;
    stamp(document);
    if (target.id === "table-error") {
      clearTimeout(errorTimer);
      errorTimer = setTimeout(function () { target.classList.remove("is-shown"); }, 6000);
    }
  });

  function banner(show) {
    var el = document.getElementById("connection");
    if (el) el.hidden = !show;
  }
  document.addEventListener("htmx:wsClose", function () { banner(true); });
  document.addEventListener("htmx:wsError", function () { banner(true); });
  document.addEventListener("htmx:wsOpen", function () { banner(false); });

  document.addEventListener("DOMContentLoaded", function () { stamp(document); tick(); });
  setInterval(tick, 250);
})();
