// The installable app: its service worker keeps the static files and an offline page.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* not fatal: the site works without */ });
  });
}
