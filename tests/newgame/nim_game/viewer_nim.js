// Nim de montones' replay renderer: the heaps in the centre, each seat's points. The house's viewer.js
// steps through the replay and calls the function left in window.arenaRenderer (docs/games.md).
"use strict";
window.arenaRenderer = function (ctx) {
  var heaps = document.createElement("ol");
  heaps.id = "heaps";
  ctx.centre.appendChild(heaps);

  function stateAt(k) {
    var s = { heaps: [], points: ctx.names.map(function () { return 0; }), out: {} };
    for (var i = 0; i < k; i++) {
      var e = ctx.events[i];
      if (e.type === "mano_start") { s.heaps = e.heaps.slice(); s.points = e.points.slice(); }
      else if (e.type === "took") s.heaps = e.heaps.slice();
      else if (e.type === "mano_end") s.points = e.points.slice();
      else if (e.type === "disqualified") s.out[e.seat] = true;
    }
    return s;
  }

  return function draw(step) {
    var s = stateAt(step);
    ctx.fill(heaps, s.heaps.map(function (size, h) {
      var li = document.createElement("li");
      li.setAttribute("data-heap", String(h));
      li.setAttribute("data-size", String(size));
      li.textContent = "●".repeat(size) + " (" + size + ")";
      return li;
    }));
    ctx.seats.forEach(function (section, seat) {
      var counter = section.querySelector(".counter");
      counter.setAttribute("data-value", String(s.points[seat]));
      counter.textContent = s.points[seat] + (s.out[seat] ? " — " + ctx.words.out : "");
      section.classList.toggle("out", !!s.out[seat]);
    });
  };
};
