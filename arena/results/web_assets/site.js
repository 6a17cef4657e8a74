// tute-arena results site: the "larger text" toggle of every page (remembered when the browser allows).
"use strict";
(function () {
  var KEY = "tute-arena-large";
  var root = document.documentElement;
  function remembered() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  function set(on) {
    root.classList.toggle("large", on);
    var button = document.getElementById("large-type");
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
    try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* file:// may refuse */ }
  }
  document.addEventListener("DOMContentLoaded", function () {
    set(remembered());
    var button = document.getElementById("large-type");
    if (button) button.addEventListener("click", function () { set(!root.classList.contains("large")); });
  });
})();
