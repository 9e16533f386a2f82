// The replay's keys: ← → step, Home / End jump; each presses the matching button, so a key
// does exactly what a tap does (an htmx request for that step, pushed to the address bar).
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  var button = document.querySelector('#replay-frame [data-key="' + event.key + '"]');
  if (!button) return;
  event.preventDefault();
  if (button.getAttribute("aria-disabled") !== "true") button.click();
});
