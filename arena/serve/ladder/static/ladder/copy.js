// The roster's copy buttons: <button data-copy="ID" data-copied="Copied"> copies the text of the
// element #ID to the clipboard (a file of its own: the Content-Security-Policy runs no inline script).
"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source) return;
  var text = source.textContent;
  var done = function () {
    var label = button.textContent;
    button.textContent = button.getAttribute("data-copied") || label;
    setTimeout(function () { button.textContent = label; }, 1500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, function () { select(source); });
  } else {
    select(source);
    try { if (document.execCommand("copy")) done(); } catch (e) { /* selected: the reader copies it */ }
  }
});
function select(node) {
  var range = document.createRange();
  range.selectNodeContents(node);
  var chosen = window.getSelection();
  chosen.removeAllRanges();
  chosen.addRange(range);
}
