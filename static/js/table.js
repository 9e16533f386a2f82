// The live table's small client side: the countdown ticks between pushes, the error line
// fades, a banner shows while the WebSocket is reconnecting, and choosing a discard: on a
// touch screen the first tap lifts a tile and the second discards it; with a mouse a click
// discards; with a keyboard ←/→ or 1–9, 0 select and Enter discards. A lifted tile shows what
// discarding it leaves the hand waiting on, as the server worked it out (data-discard-waits
// on #my-hand): no rule is judged here. The hand on its turn is one Tab stop (a roving
// tabindex: arrows, Home and End move within it), and a polite live region (#announce) tells a
// screen reader what the eye sees change: the turn, a claim window, each discard, the
// settlement. Everything else is htmx.
(function () {
  "use strict";

  // A push morphs the table (idiomorph): the parts that hold the buttons stay the same
  // elements, so htmx processes only what it can find inside them. It finds hx-* attributes,
  // but the ws extension (htmx 2) names no selector for its ws-send buttons: a button that a
  // morph added (my hand on my turn, a claim's choices) was never given its click handler, and
  // every press on it was lost. Naming [ws-send] here lets htmx find them; the ws extension
  // then wires each new or changed one (and only those: an unchanged one keeps its handler).
  if (window.htmx) {
    htmx.defineExtension("ws-send-found", { getSelectors: function () { return ["[ws-send]"]; } });
  }

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
    document.querySelectorAll("[data-ends-at]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.endsAt) - now) / 1000));
      el.textContent = String(left);
      var box = el.closest(".countdown") || el;
      box.classList.toggle("is-low", left <= 5);
    });
  }

  // ------------------------------------------------------------ choosing a discard

  var coarse = window.matchMedia ? window.matchMedia("(pointer: coarse)") : { matches: false };
  var lifted = null; // {step, index} of the lifted tile, kept across a push of the same step

  function hand() { return document.querySelector("#my-hand.can-discard"); }
  function handTiles() {
    var h = hand();
    return h ? Array.prototype.slice.call(h.querySelectorAll("button.tile")) : [];
  }
  function step() {
    var t = document.getElementById("table-public");
    return t ? t.dataset.step : null;
  }
  function waitsOf(code) {
    var h = hand();
    if (!h || !h.dataset.discardWaits) return "";
    try { return JSON.parse(h.dataset.discardWaits)[code] || ""; } catch (e) { return ""; }
  }

  function preview(tile) {
    var box = document.getElementById("discard-preview");
    if (!box) return;
    var text = tile ? waitsOf(tile.dataset.tile) : "";
    box.textContent = text || (tile ? box.dataset.notReady || "" : "");
    box.classList.toggle("is-ready", !!text);
    box.hidden = !tile;
  }

  // One Tab stop for the whole hand: the lifted tile, else the drawn one (the last).
  function rove(tile) {
    var tiles = handTiles();
    var stop = tile || tiles[tiles.length - 1];
    tiles.forEach(function (t) { t.tabIndex = t === stop ? 0 : -1; });
  }

  function lift(tile) {
    handTiles().forEach(function (t) {
      t.classList.toggle("tile--selected", t === tile);
      t.setAttribute("aria-pressed", t === tile ? "true" : "false");
    });
    rove(tile);
    var tiles = handTiles();
    lifted = tile ? { step: step(), index: tiles.indexOf(tile) } : null;
    preview(tile);
  }

  function restoreLift() {
    var tiles = handTiles();
    if (!lifted || lifted.step !== step() || !tiles[lifted.index]) { lifted = null; preview(null); rove(null); return; }
    lift(tiles[lifted.index]);
  }

  // Capture phase: runs before htmx's own click listener on the tile, so a first tap on a
  // touch screen only lifts the tile and nothing is sent.
  document.addEventListener("click", function (evt) {
    var tile = evt.target.closest && evt.target.closest("#my-hand.can-discard button.tile");
    if (!tile) return;
    if (coarse.matches && !tile.classList.contains("tile--selected")) {
      evt.preventDefault();
      evt.stopImmediatePropagation();
      lift(tile);
    }
  }, true);

  document.addEventListener("mouseover", function (evt) {
    if (coarse.matches) return;
    var tile = evt.target.closest && evt.target.closest("#my-hand.can-discard button.tile");
    if (tile) preview(tile);
  });

  document.addEventListener("keydown", function (evt) {
    if (evt.altKey || evt.ctrlKey || evt.metaKey) return;
    var target = evt.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    var tiles = handTiles();
    if (!tiles.length) return;
    // From the focused tile (the hand's Tab stop), else from the lifted one.
    var current = tiles.indexOf(target);
    if (current < 0) current = tiles.findIndex(function (t) { return t.classList.contains("tile--selected"); });
    var next = null;
    if (evt.key === "ArrowRight") next = current < 0 ? 0 : Math.min(tiles.length - 1, current + 1);
    else if (evt.key === "ArrowLeft") next = current < 0 ? tiles.length - 1 : Math.max(0, current - 1);
    else if (evt.key === "Home" && tiles.indexOf(target) >= 0) next = 0;
    else if (evt.key === "End" && tiles.indexOf(target) >= 0) next = tiles.length - 1;
    else if (/^[0-9]$/.test(evt.key)) next = evt.key === "0" ? 9 : Number(evt.key) - 1;
    else if (evt.key === "Enter" && current >= 0 && target === document.body) {
      evt.preventDefault();
      tiles[current].click();
      return;
    }
    if (next === null || !tiles[next]) return;
    evt.preventDefault();
    lift(tiles[next]);
    tiles[next].focus({ preventScroll: true });
  });

  // ------------------------------------------------------------ what a screen reader hears

  // The words of an element as a screen reader reads them: its text, and the names of the
  // tiles in it (pictures with an aria-label).
  function spoken(el) {
    if (!el) return "";
    var parts = [];
    (function walk(node) {
      if (node.nodeType === 3) { if (node.nodeValue.trim()) parts.push(node.nodeValue.trim()); return; }
      if (node.nodeType !== 1 || node.hidden || node.getAttribute("aria-hidden") === "true") return;
      if (node.dataset.endsAt) return; // a countdown: its second would be stale when heard
      if (node.getAttribute("role") === "img") { parts.push(node.getAttribute("aria-label") || ""); return; }
      node.childNodes.forEach(walk);
    })(el);
    return parts.join(" ");
  }

  var heard = null; // what the last announcement saw: {rivers, turn, window, settled}

  function seen() {
    var rivers = {};
    document.querySelectorAll("#table-public .seat-panel").forEach(function (panel) {
      rivers[panel.dataset.seat] = panel.querySelectorAll(".river [role=img]").length;
    });
    var win = document.querySelector("#table-private .window");
    return {
      rivers: rivers,
      turn: !!hand(),
      window: win ? spoken(win) + "|" + step() : "",
      settled: !!document.querySelector("#settlement, #match-summary"),
    };
  }

  function announce() {
    var box = document.getElementById("announce");
    if (!box) return;
    var now = seen();
    // A page just opened hears what is asked of it now, not the discards made before.
    var before = heard || { rivers: now.rivers, turn: false, window: "", settled: false };
    heard = now;
    var said = [];
    var seats = JSON.parse(box.dataset.seats || "[]");
    var root = document.querySelector("section.table");
    var me = root && root.dataset.me !== "" ? Number(root.dataset.me) : null;
    Object.keys(now.rivers).forEach(function (seat) {
      if (!(now.rivers[seat] > (before.rivers[seat] || 0))) return;
      var panel = document.querySelector('#table-public .seat-panel[data-seat="' + seat + '"]');
      var tiles = panel.querySelectorAll(".river [role=img]");
      var who = me === null ? spoken(panel.querySelector(".seat-name"))
        : seats[(Number(seat) - me + 4) % 4];
      var tile = tiles[tiles.length - 1].getAttribute("aria-label");
      said.push(box.dataset.discard.replace("{who}", who).replace("{tile}", tile));
    });
    if (now.window && now.window !== before.window) {
      var choices = Array.prototype.map.call(
        document.querySelectorAll("#actions [data-action]"), spoken);
      said.push(now.window.split("|")[0] + ": " + choices.join(", "));
    }
    if (now.turn && !before.turn) {
      var drawn = document.querySelector("#my-hand .tile--drawn");
      said.push(box.dataset.turn + (drawn ? " " + drawn.getAttribute("aria-label") : ""));
    }
    if (now.settled && !before.settled) {
      var panelSeen = document.querySelector("#match-summary") || document.getElementById("settlement");
      said.push(spoken(panelSeen.querySelector("h2")) + ". " +
        Array.prototype.map.call(panelSeen.querySelectorAll(".winner-head"), spoken).join(". "));
    }
    if (said.length) box.textContent = said.join(". ");
  }

  var announceTimer = null;
  function announceSoon() {
    // One push swaps several parts: speak once they are all in.
    clearTimeout(announceTimer);
    announceTimer = setTimeout(announce, 100);
  }

  // ------------------------------------------------------------ a first push that repeats the page

  // A new socket's first push is the whole of #live, made before the server knows what this
  // page shows: as a rule the very table the page was served. Swapping it in again took a
  // phone a few hundred ms of its main thread, so it is compared with what the page was served
  // (both as this browser writes HTML back out, less the forms' CSRF tokens, which differ by
  // design, and the server's clock) and dropped when nothing else differs.
  function comparable(live) {
    return live.innerHTML
      .replace(/ name="csrfmiddlewaretoken" value="[^"]*"/g, "")
      .replace(/<i id="table-clock"[^>]*><\/i>/, "");
  }
  var servedLive = document.getElementById("live");
  var served = servedLive ? comparable(servedLive) : null; // before anything here changes it

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    if (served === null) return;
    var expected = served;
    served = null; // only the socket's first push
    var message = evt.detail && evt.detail.message;
    if (typeof message !== "string" || message.indexOf('<div id="live"') !== 0) return;
    var parsed = document.createElement("template");
    parsed.innerHTML = message;
    var live = parsed.content.firstElementChild;
    if (parsed.content.children.length !== 1 || live.id !== "live") return;
    if (comparable(live) !== expected) return;
    evt.preventDefault();
    var clock = live.querySelector("#table-clock");
    var mine = document.getElementById("table-clock");
    if (clock && mine) { mine.dataset.now = clock.dataset.now; delete mine.dataset.read; }
  });

  // ------------------------------------------------------------ pushes

  var errorTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    if (!target) return;
    tick();
    if (target.id === "live" || target.id === "table-private") restoreLift();
    announceSoon();
    if (target.id === "table-error") {
      // An outerHTML swap puts a new element in the page: the event's target is the old one,
      // so the line is looked up again when it is time to hide it.
      clearTimeout(errorTimer);
      errorTimer = setTimeout(function () {
        var shown = document.getElementById("table-error");
        if (shown) shown.classList.remove("is-shown");
      }, 6000);
    }
  });

  function banner(show) {
    var el = document.getElementById("connection");
    if (el) el.hidden = !show;
  }
  document.addEventListener("htmx:wsClose", function () { banner(true); });
  document.addEventListener("htmx:wsError", function () { banner(true); });
  document.addEventListener("htmx:wsOpen", function () { banner(false); });

  document.addEventListener("DOMContentLoaded", function () { tick(); rove(null); announce(); });
  setInterval(tick, 250);
})();
