// tute-arena replay viewer: steps through a partido's replay lines (embedded as JSON), for any game;
// the game's renderer (window.arenaRenderer, from the file its spec names) draws the table.
// State after step K = the replay's lines 0..K-1 applied. Every text from the replay is put in
// with textContent (never as markup); the words come from the page (#replay-text, #viewer-strings).
"use strict";
(function () {
  function data(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var events = data("replay-data") || [];
    var texts = data("replay-text") || [];
    var words = data("viewer-strings") || {};
    var viewer = document.getElementById("viewer");
    var seats = Array.prototype.slice.call(document.querySelectorAll(".seat[data-seat]"));
    var names = seats.map(function (s) { return s.querySelector(".name").textContent; });
    var n = events.length;
    var step = 0;
    var timer = null;
    var playButton = document.getElementById("play");
    var viewAs = document.getElementById("view-as");
    var log = document.getElementById("log");

    function format(template, values) {
      return String(template || "").replace(/\{(\w+)\}/g, function (m, key) {
        return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : m;
      });
    }

    function fill(node, children) {
      while (node.firstChild) node.removeChild(node.firstChild);
      children.forEach(function (c) { node.appendChild(c); });
    }

    // The game's renderer (its spec's viewer file, loaded before this one) draws the table.
    var draw = typeof window.arenaRenderer === "function" ? window.arenaRenderer({
      events: events, words: words, seats: seats, names: names, format: format, fill: fill,
      centre: document.getElementById("centre")
    }) : null;

    // The log marks the house's faults, and the events the renderer names as faults of its game.
    var faultEvents = ["disqualified", "penalized"].concat((draw && draw.faultEvents) || []);

    function render() {
      var who = viewAs ? viewAs.value : "all";
      viewer.setAttribute("data-step", String(step));
      if (draw) draw(step, who);
      renderLog();
      var now = step > 0 ? (texts[step - 1] || []).join(" ") : words.start;
      document.getElementById("status").textContent =
        format(words.step, { k: step, n: n }) + ": " + (now || events[step - 1].type);
    }

    function renderLog() {
      var items = [];
      for (var i = 0; i < step; i++) {
        var type = events[i].type;
        (texts[i] || []).forEach(function (line) {
          var li = document.createElement("li");
          li.textContent = line;
          var kind = type === "mano_start" ? "mano" : faultEvents.indexOf(type) >= 0 ? "fault" : "";
          li.className = kind + (i === step - 1 ? " current" : "");
          items.push(li);
        });
      }
      fill(log, items);
      log.scrollTop = log.scrollHeight;
    }

    function go(k) {
      step = Math.max(0, Math.min(n, k));
      if (step >= n) stop();
      render();
    }

    function stop() {
      if (timer !== null) window.clearInterval(timer);
      timer = null;
      if (playButton) {
        playButton.setAttribute("aria-pressed", "false");
        playButton.querySelector(".label").textContent = words.play;
      }
    }

    function toggle() {
      if (timer !== null) { stop(); return; }
      if (step >= n) step = 0;
      timer = window.setInterval(function () { go(step + 1); }, 700);
      playButton.setAttribute("aria-pressed", "true");
      playButton.querySelector(".label").textContent = words.pause;
    }

    function on(id, action) {
      var node = document.getElementById(id);
      if (node) node.addEventListener("click", action);
    }
    on("first", function () { stop(); go(0); });
    on("prev", function () { stop(); go(step - 1); });
    on("next", function () { stop(); go(step + 1); });
    on("last", function () { stop(); go(n); });
    on("play", toggle);
    if (viewAs) viewAs.addEventListener("change", render);

    document.addEventListener("keydown", function (e) {
      var tag = e.target && e.target.tagName;
      if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
      if (tag === "BUTTON" && (e.key === " " || e.key === "Enter")) return; // the button's own click
      if (e.key === "ArrowRight") { stop(); go(step + 1); }
      else if (e.key === "ArrowLeft") { stop(); go(step - 1); }
      else if (e.key === "Home") { stop(); go(0); }
      else if (e.key === "End") { stop(); go(n); }
      else if (e.key === " " || e.key === "Spacebar") toggle();
      else return;
      e.preventDefault();
    });

    var asked = /^#(\d+)$/.exec(window.location.hash);
    go(asked ? Number(asked[1]) : 0);
  });
})();
