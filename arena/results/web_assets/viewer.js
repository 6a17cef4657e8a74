// tute-arena replay viewer: steps through a partido's replay lines (embedded as JSON) card by card.
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
    var pairs = events.length && events[0].type === "partido_start" && events[0].teams;
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

    function stateAt(k) {
      var s = { hands: names.map(function () { return []; }), trick: [], trump: "", shown: "", outOfPlay: "",
                porotos: names.map(function () { return null; }), juegos: [0, 0], out: {} };
      for (var i = 0; i < k; i++) {
        var e = events[i];
        if (e.type === "mano_start") {
          s.hands = (e.hands || []).map(function (h) { return h ? h.slice() : []; });
          s.trick = [];
          s.trump = e.trump || "";
          s.shown = e.shown || "";
          s.outOfPlay = e.out_of_play || "";
          if (e.porotos) s.porotos = e.porotos.slice();
          if (e.juegos) { s.juegos = e.juegos.slice(); s.juegosBySeat = !pairs; }
        } else if (e.type === "played") {
          var hand = s.hands[e.seat] || [];
          var at = hand.indexOf(e.card);
          if (at >= 0) hand.splice(at, 1);
          s.trick.push({ seat: e.seat, card: e.card, renuncio: e.renuncio === true });
        } else if (e.type === "drew") {  // a card from the stock (monte): into the seat's hand
          (s.hands[e.seat] = s.hands[e.seat] || []).push(e.card);
          if (e.card === s.shown) s.shown = "";
        } else if (e.type === "exchanged") {  // the turned-up card taken for one of the hand
          var held = s.hands[e.seat] || [];
          var gave = held.indexOf(e.gave);
          if (gave >= 0) held.splice(gave, 1);
          held.push(e.took);
          s.shown = e.gave;
        } else if (e.type === "trick_end") {
          s.trick = [];
        } else if (e.type === "mano_end") {
          if (e.porotos) s.porotos = e.porotos.slice();
          if (e.juegos) { s.juegos = e.juegos.slice(); s.juegosBySeat = !pairs; }
        } else if (e.type === "disqualified") {
          s.out[e.seat] = true;
        }
      }
      return s;
    }

    function card(code, extra) {
      var node = document.createElement("span");
      var parts = String(code).split("-");
      node.className = "card suit-" + parts[1] + (extra ? " " + extra : "");
      node.setAttribute("data-card", code);
      var rank = document.createElement("span");
      rank.className = "rank";
      rank.textContent = parts[0];
      var suit = document.createElement("span");
      suit.className = "suit";
      suit.textContent = parts[1] || "";
      node.appendChild(rank);
      node.appendChild(suit);
      return node;
    }

    function back() {
      var node = document.createElement("span");
      node.className = "card back";
      var hidden = document.createElement("span");
      hidden.className = "visually-hidden";
      hidden.textContent = words.hidden || "";
      node.appendChild(hidden);
      return node;
    }

    function fill(node, children) {
      while (node.firstChild) node.removeChild(node.firstChild);
      children.forEach(function (c) { node.appendChild(c); });
    }

    function setCard(node, code, template) {
      node.setAttribute("data-card", code || "");
      fill(node, []);
      if (!code) return;
      var label = document.createElement("span");
      label.textContent = template ? template + " " : "";
      node.appendChild(label);
      node.appendChild(card(code));
    }

    function render() {
      var s = stateAt(step);
      var who = viewAs ? viewAs.value : "all";
      viewer.setAttribute("data-step", String(step));
      seats.forEach(function (section, seat) {
        var hand = s.hands[seat] || [];
        var open = who === "all" || String(seat) === who;
        fill(section.querySelector(".hand"), hand.map(function (c) { return open ? card(c) : back(); }));
        var counter = section.querySelector(".porotos");
        var value;
        var label;
        if (pairs) {
          var team = Number(section.getAttribute("data-team"));
          value = s.juegos[team];
          label = words.juegos;
        } else if (s.porotos[seat] === null && s.juegosBySeat) {  // a game scored in juegos by seat
          value = s.juegos[seat];
          label = words.juegos;
        } else {
          value = s.porotos[seat];
          label = words.porotos;
        }
        counter.setAttribute("data-value", value === null || value === undefined ? "" : String(value));
        counter.textContent = value === null || value === undefined ? "" : value + " " + label +
          (s.out[seat] ? " — " + words.out : "");
        section.classList.toggle("out", !!s.out[seat]);
      });
      fill(document.getElementById("trick"), s.trick.map(function (t) {
        var node = card(t.card, t.renuncio ? "renuncio" : "");
        node.setAttribute("data-seat", String(t.seat));
        node.setAttribute("data-who", names[t.seat] || String(t.seat));
        if (t.renuncio) node.title = words.renuncio;
        return node;
      }));
      var trump = document.getElementById("trump");
      trump.setAttribute("data-suit", s.trump);
      trump.textContent = s.trump ? format(words.trump, { suit: s.trump }) : "";
      trump.className = s.trump ? "suit-" + s.trump : "";
      setCard(document.getElementById("shown"), s.shown, words.shown);
      setCard(document.getElementById("out-of-play"), s.outOfPlay, words.outOfPlay);
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
          var kind = type === "mano_start" ? "mano" :
            (type === "disqualified" || type === "penalized" || type === "accused") ? "fault" : "";
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
