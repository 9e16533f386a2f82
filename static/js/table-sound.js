// Sounds and touch at the table: short tones synthesised with the Web Audio API (no audio
// file is fetched) for my turn, 吃/碰/杠, 胡 and the settlement, and a vibration on my turn.
// What happened is read from the pushed page itself (its data attributes), comparing each
// push with the one before. The mute toggle is remembered in localStorage.
(function () {
  "use strict";

  var KEY = "mj-sound";
  var ctx = null;

  function muted() {
    try { return localStorage.getItem(KEY) === "off"; } catch (e) { return false; }
  }

  function audio() {
    if (ctx) return ctx;
    var Ctor = window.AudioContext || window.webkitAudioContext;
    if (!Ctor) return null;
    ctx = new Ctor();
    return ctx;
  }

  // Browsers start audio only after a gesture: wake the context on the first one.
  function wake() {
    var c = audio();
    if (c && c.state === "suspended") c.resume();
  }
  document.addEventListener("pointerdown", wake, { once: true, capture: true });
  document.addEventListener("keydown", wake, { once: true, capture: true });

  // Each sound: [frequency Hz, start s, length s, wave] notes.
  var SOUNDS = {
    turn: [[660, 0, 0.09, "sine"], [880, 0.1, 0.12, "sine"]],
    chi: [[520, 0, 0.08, "triangle"], [620, 0.08, 0.1, "triangle"]],
    peng: [[440, 0, 0.07, "square"], [440, 0.1, 0.09, "square"]],
    gang: [[392, 0, 0.08, "square"], [494, 0.09, 0.08, "square"], [587, 0.18, 0.12, "square"]],
    hu: [[523, 0, 0.12, "triangle"], [659, 0.12, 0.12, "triangle"], [784, 0.24, 0.12, "triangle"], [1047, 0.36, 0.3, "triangle"]],
    settle: [[587, 0, 0.12, "sine"], [494, 0.14, 0.2, "sine"]],
  };

  function play(name) {
    if (muted()) return;
    var c = audio();
    if (!c || c.state !== "running") return;
    var now = c.currentTime;
    SOUNDS[name].forEach(function (n) {
      var osc = c.createOscillator();
      var gain = c.createGain();
      osc.type = n[3];
      osc.frequency.value = n[0];
      gain.gain.setValueAtTime(0.0001, now + n[1]);
      gain.gain.exponentialRampToValueAtTime(0.18, now + n[1] + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + n[1] + n[2]);
      osc.connect(gain).connect(c.destination);
      osc.start(now + n[1]);
      osc.stop(now + n[1] + n[2] + 0.02);
    });
  }

  function snapshot() {
    var count = function (sel) { return document.querySelectorAll(sel).length; };
    var settlement = document.getElementById("settlement");
    return {
      step: (document.getElementById("table-public") || { dataset: {} }).dataset.step,
      asked: !!(document.querySelector("#my-hand.can-discard") || document.querySelector("#actions [data-action]")),
      chi: count("section.table .melds .meld-chi"),
      peng: count("section.table .melds .meld-peng"),
      gang: count("section.table .melds [class*='meld-'][class*='gang']"),
      settlement: !!settlement,
      won: !!(settlement && settlement.querySelector(".winner")),
    };
  }

  var last = snapshot();
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var id = evt.detail && evt.detail.target && evt.detail.target.id;
    if (id !== "live" && id !== "table-public" && id !== "table-private") return;
    var now = snapshot();
    if (now.settlement && !last.settlement) play(now.won ? "hu" : "settle");
    else if (now.gang > last.gang) play("gang");
    else if (now.peng > last.peng) play("peng");
    else if (now.chi > last.chi) play("chi");
    if (now.asked && (!last.asked || now.step !== last.step) && !now.settlement) {
      play("turn");
      if (navigator.vibrate && !muted()) navigator.vibrate(60);
      if (document.hidden) nudge();
    }
    last = now;
  });

  // My turn while the tab is hidden: the title flashes until the page is seen again, the
  // device vibrates where it can, and a notification shows if the person turned them on.
  var NOTIFY = "mj-notify";
  var flashing = null;
  var title = document.title;
  function notifyOn() {
    try { return localStorage.getItem(NOTIFY) === "on"; } catch (e) { return false; }
  }
  function nudge() {
    var button = document.getElementById("notify-toggle");
    var text = (button && button.dataset.turnText) || "!";
    if (!flashing) {
      title = document.title;
      var on = false;
      flashing = setInterval(function () {
        on = !on;
        document.title = on ? "【" + text + "】" + title : title;
      }, 1000);
    }
    if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
    if (notifyOn() && window.Notification && Notification.permission === "granted") {
      try { new Notification(text, { body: title, tag: "mj-turn" }); } catch (e) { /* Android: needs a worker */ }
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || !flashing) return;
    clearInterval(flashing);
    flashing = null;
    document.title = title;
  });
  // Permission is asked once, and only when the person turns notifications on.
  function paintNotify(button) {
    button.setAttribute("aria-pressed", notifyOn() ? "true" : "false");
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("#notify-toggle");
    if (!button) return;
    var turnOn = !notifyOn();
    try { localStorage.setItem(NOTIFY, turnOn ? "on" : "off"); } catch (e) { /* private mode */ }
    if (turnOn && window.Notification && Notification.permission === "default") {
      Notification.requestPermission().then(function () { paintNotify(button); });
    }
    paintNotify(button);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("notify-toggle");
    if (button) paintNotify(button);
  });

  function paint(button) {
    var off = muted();
    button.setAttribute("aria-pressed", off ? "true" : "false");
  }

  document.addEventListener("DOMContentLoaded", function () {
    last = snapshot();
    var button = document.getElementById("sound-toggle");
    if (!button) return;
    paint(button);
    button.addEventListener("click", function () {
      try { localStorage.setItem(KEY, muted() ? "on" : "off"); } catch (e) { /* private mode */ }
      paint(button);
      wake();
      play("turn");
    });
  });
})();
