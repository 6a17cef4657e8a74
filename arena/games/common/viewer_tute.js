// tute-arena replay viewer: the Tute games' renderer (hands, the baza on the table, triunfo, the card
// turned up, porotos or juegos). The house's viewer.js steps through the replay and calls the function
// this file leaves in window.arenaRenderer with the state's step and whose hands to show.
"use strict";
window.arenaRenderer = function (ctx) {
  var events = ctx.events;
  var words = ctx.words;
  var seats = ctx.seats;
  var names = ctx.names;
  var format = ctx.format;
  var fill = ctx.fill;
  var pairs = events.length && events[0].type === "partido_start" && events[0].teams;

  (function table() {  // the centre of the table: triunfo, the card turned up, out of play, the baza
    var centre = ctx.centre;
    [["p", "trump", "data-suit"], ["p", "shown", "data-card"], ["p", "out-of-play", "data-card"],
     ["div", "trick", null]].forEach(function (spec) {
      var node = document.createElement(spec[0]);
      node.id = spec[1];
      if (spec[2]) node.setAttribute(spec[2], "");
      if (spec[1] === "trick") node.setAttribute("aria-label", words.trick || "");
      centre.appendChild(node);
    });
    seats.forEach(function (section) { section.querySelector(".counter").classList.add("porotos"); });
  })();

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

  function setCard(node, code, template) {
    node.setAttribute("data-card", code || "");
    fill(node, []);
    if (!code) return;
    var label = document.createElement("span");
    label.textContent = template ? template + " " : "";
    node.appendChild(label);
    node.appendChild(card(code));
  }


  function draw(step, who) {
    var s = stateAt(step);
    seats.forEach(function (section, seat) {
      var hand = s.hands[seat] || [];
      var open = who === "all" || String(seat) === who;
      fill(section.querySelector(".hand"), hand.map(function (c) { return open ? card(c) : back(); }));
      var counter = section.querySelector(".counter");
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
  }
  draw.faultEvents = ["accused"];  // an accusation is a fault's line in the log
  return draw;
};
