// The 算分器's picker: tapping a tile adds it to the field it aims at (the hand, the winning
// tile, the indicator or the melds), and every field's tiles are drawn under it as they are
// tapped or typed, with the table's own tile pictures (cloned from the picker's buttons). The
// form is still a plain GET: the page's address holds the whole hand.
(function () {
  "use strict";

  function start() {
    var form = document.getElementById("calc-form");
    if (!form) return;
    var target = document.getElementById("id_hand");
    var single = { id_win: true, id_indicator: true };
    var fields = ["id_hand", "id_win", "id_indicator", "id_melds"];
    form.querySelectorAll("[hidden]").forEach(function (el) { el.hidden = false; });

    // One picture per tile code, from the picker: the same sprite and names as the table.
    var faces = {};
    form.querySelectorAll(".picker button[data-tile]").forEach(function (b) {
      faces[b.dataset.tile] = { svg: b.querySelector("svg"), label: b.getAttribute("aria-label") };
    });
    function tileEl(code) {
      var face = faces[code];
      if (!face) return null;
      var el = document.createElement("span");
      el.className = "tile";
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", face.label);
      el.dataset.tile = code;
      el.appendChild(face.svg.cloneNode(true));
      return el;
    }
    // "123m55z" → ["1m", "2m", "3m", "5z", "5z"]: digits take the suit letter after them.
    function codes(text) {
      var out = [];
      (text.match(/[0-9]+[mpsz]/g) || []).forEach(function (group) {
        var suit = group.slice(-1);
        group.slice(0, -1).split("").forEach(function (d) { out.push(d + suit); });
      });
      return out;
    }
    function draw(input) {
      var row = input.drawn;
      row.textContent = "";
      // Melds: "peng:555m chi:123s", one group each.
      var groups = input.id === "id_melds"
        ? input.value.trim().split(/\s+/).map(function (m) { return m.split(":").pop(); })
        : [input.value];
      groups.forEach(function (group) {
        var into = row;
        if (input.id === "id_melds") {
          into = document.createElement("span");
          into.className = "meld";
          row.appendChild(into);
        }
        codes(group).forEach(function (code) {
          var el = tileEl(code);
          if (el) into.appendChild(el);
        });
        if (into !== row && !into.childNodes.length) row.removeChild(into);
      });
    }
    fields.forEach(function (id) {
      var input = document.getElementById(id);
      if (!input) return;
      var row = document.createElement("div");
      row.className = "tile-row calc-drawn";
      row.dataset.drawnFor = id;
      (input.closest(".field") || input.parentNode).appendChild(row); // under its help line
      input.drawn = row;
      input.addEventListener("input", function () { draw(input); });
      input.addEventListener("focus", function () { aim(input); });
      draw(input);
    });

    function aim(el) {
      target = el;
      form.querySelectorAll("[data-target]").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.target === el.id ? "true" : "false");
      });
    }
    form.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b) return;
      if (b.dataset.target) { aim(document.getElementById(b.dataset.target)); return; }
      var act = b.dataset.action;
      if (act === "pick") {
        e.preventDefault();
        target.value = single[target.id] ? b.value : target.value + b.value;
      } else if (act === "pick-back") {
        var v = target.value.trim();
        // "123m" loses its 3, "55z3m" its 3m: the last tile of compact notation
        target.value = v.replace(/\d([mpsz])$/, function (m, s) { return /\d$/.test(v.slice(0, -2)) ? s : ""; });
      } else if (act === "pick-clear") {
        target.value = "";
      } else if (act === "meld-kind") {
        var melds = document.getElementById("id_melds");
        melds.value = (melds.value.trim() + " " + b.value + ":").trim();
        aim(melds);
        draw(melds);
        return;
      } else {
        return;
      }
      if (target.drawn) draw(target);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
