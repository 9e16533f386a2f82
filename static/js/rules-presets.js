// The rules' presets (上饶标准 / 九幺番 / 自定义): choosing one fills every option with its
// values (#profile-defaults, from the server); each option can still be changed after.
(function () {
  "use strict";
  var radios = document.querySelectorAll('input[name="profile"]');
  var data = document.getElementById("profile-defaults");
  if (!data) return;
  var defaults = JSON.parse(data.textContent);
  radios.forEach(function (radio) { radio.addEventListener("change", function () {
    if (!radio.checked) return;
    var values = defaults[radio.value] || {};
    Object.keys(values).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (!input || name === "profile") return;
      if (input.type === "checkbox") { input.checked = !!values[name]; } else { input.value = values[name]; }
    });
  }); });
})();
