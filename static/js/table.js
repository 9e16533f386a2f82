// The live table's small client side: the countdown ticks between pushes, the error line
// fades, and a banner shows while the WebSocket is reconnecting. Everything else is htmx.
(function () {
  "use strict";

  // The countdown runs to an absolute time (data-ends-at, ms); every push carries the
  // server's own time (#table-clock), so a phone's wrong clock does not matter.
  var skew = 0;

  function readClock() {
    var clock = document.getElementById("table-clock");
    if (clock && clock.dataset.now && !clock.dataset.read) {
      skew = Number(clock.dataset.now) - Date.now();
      clock.dataset.read = "1";
    }
  }

  function tick() {
    readClock();
    var now = Date.now() + skew;
    document.querySelectorAll(".countdown[data-ends-at]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.endsAt) - now) / 1000));
      el.textContent = String(left);
      el.classList.toggle("is-low", left <= 5);
    });
  }

  var errorTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target) return;
    tick();
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

  document.addEventListener("DOMContentLoaded", tick);
  setInterval(tick, 250);
})();
