// The social side of a room page: quick phrases (快捷语) shown beside their seat for a few
// seconds, a per-seat mute remembered in localStorage, and the invite link's copy and
// share buttons (the Web Share API where the browser has it).
(function () {
  "use strict";

  var MUTED = "mj-muted-players";
  var SHOWN_MS = 3500;

  function mutedPlayers() {
    try { return JSON.parse(localStorage.getItem(MUTED) || "[]"); } catch (e) { return []; }
  }
  function setMuted(list) {
    try { localStorage.setItem(MUTED, JSON.stringify(list)); } catch (e) { /* private mode */ }
  }

  function place(bubble) {
    var box = document.getElementById("phrases");
    // A bubble names its seat, never the account (spectators see the markup too): a mute is
    // kept per room and seat.
    var root = document.querySelector(".live-root");
    var seat = bubble.dataset.seat;
    var sender = (root ? root.dataset.room : "") + ":" + seat;
    if (mutedPlayers().indexOf(sender) >= 0) { bubble.remove(); return; }
    var panel = document.querySelector('.seat-panel[data-seat="' + bubble.dataset.seat + '"]');
    if (panel) {
      var r = panel.getBoundingClientRect();
      bubble.style.left = Math.max(4, Math.min(window.innerWidth - 180, r.left + 8)) + "px";
      bubble.style.top = Math.max(4, r.top + 4) + "px";
      bubble.dataset.position = panel.dataset.position || "";
    }
    if (box && box.dataset.me !== seat && box.dataset.muteLabel) {
      var mute = document.createElement("button");
      mute.type = "button";
      mute.className = "phrase-mute";
      mute.textContent = box.dataset.muteLabel;
      mute.addEventListener("click", function () {
        var list = mutedPlayers();
        if (list.indexOf(sender) < 0) list.push(sender);
        setMuted(list);
        bubble.remove();
      });
      bubble.appendChild(mute);
    }
    setTimeout(function () { bubble.remove(); }, SHOWN_MS);
  }

  function watchPhrases() {
    var box = document.getElementById("phrases");
    if (!box || !window.MutationObserver) return;
    new MutationObserver(function (records) {
      records.forEach(function (r) {
        r.addedNodes.forEach(function (n) {
          if (n.nodeType !== 1) return;
          if (n.classList.contains("phrase-bubble")) place(n);
          else n.querySelectorAll && n.querySelectorAll(".phrase-bubble").forEach(place);
        });
      });
    }).observe(box, { childList: true, subtree: true });
  }

  document.addEventListener("click", function (evt) {
    var el = evt.target.closest && evt.target.closest("[data-action]");
    if (!el) return;
    var action = el.dataset.action;
    if (action === "phrase-unmute") {
      setMuted([]);
      return;
    }
    if (action === "phrase") {
      var menu = el.closest("details");
      if (menu) menu.open = false;
      return;
    }
    var share = el.closest(".invite-share");
    if (!share) return;
    var url = share.dataset.inviteUrl;
    var copied = function () { toast(share.dataset.copied || url); };
    if (action === "share-invite" && navigator.share) {
      navigator.share({ title: share.dataset.inviteTitle, url: url }).catch(function () {});
    } else if (action === "copy-invite" || action === "share-invite") {
      // Without the share API, 分享 copies the link: either way the person gets a link to send.
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(copied, function () { window.prompt("", url); });
      } else {
        window.prompt("", url);
      }
    }
  });

  // A short line at the foot of the screen, read out by screen readers.
  function toast(text) {
    var old = document.querySelector(".toast");
    if (old) old.remove();
    var el = document.createElement("div");
    el.className = "toast";
    el.setAttribute("role", "status");
    el.textContent = text;
    document.body.appendChild(el);
    setTimeout(function () { el.remove(); }, 2500);
  }

  // 结束比赛 and leaving mid-hand ask first; the capture phase answers before htmx sends.
  document.addEventListener("click", function (evt) {
    var el = evt.target.closest && evt.target.closest("[data-confirm]");
    if (el && !window.confirm(el.dataset.confirm)) {
      evt.preventDefault();
      evt.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("DOMContentLoaded", watchPhrases);
})();
