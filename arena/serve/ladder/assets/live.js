// arena serve: the standings page kept up to date without reloading it. Every few seconds it asks
// live.json (the address in #live's data-live) for the standings and the latest partidos and
// rewrites both tables in place (an answer unchanged since the last one drawn, named by its ETag
// in If-None-Match, comes as 304 with no body). Every text is put in with textContent, never as markup.
"use strict";
(function () {
  function cell(tag, text) {
    var node = document.createElement(tag);
    node.textContent = text === null || text === undefined ? "" : String(text);
    return node;
  }

  function fill(tbody, rows) {
    while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
    rows.forEach(function (row) { tbody.appendChild(row); });
  }

  function show(id, on) {
    var node = document.getElementById(id);
    if (node) node.hidden = !on;
  }

  function link(href, text) {
    var a = cell("a", text);
    a.setAttribute("href", href);
    return a;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var live = document.getElementById("live");
    var standings = document.querySelector("#standings tbody");
    var partidos = document.querySelector("#partidos tbody");
    if (!live || !standings || !partidos || !window.fetch) return;
    var url = live.getAttribute("data-live");
    var every = Number(live.getAttribute("data-every")) || 3000;
    var words = {
      replay: live.getAttribute("data-replay") || "",
      text: live.getAttribute("data-text") || "",
      key: live.getAttribute("data-key") || ""
    };
    // "updated N s ago": the age of the tables, counted from the last answer drawn
    var updated = document.getElementById("updated");
    var drawnAt = Date.now();
    var failing = false;
    var opened = {};
    var SAME = {};  // a 304: the tables drawn are still the server's
    var tag = "";  // the ETag of the answer being read
    var drawnTag = "";  // the ETag of the answer drawn

    function age() {
      if (!updated) return;
      var n = Math.max(0, Math.round((Date.now() - drawnAt) / 1000));
      var said = (failing && updated.getAttribute("data-failed")) || updated.getAttribute("data-words") || "{n}";
      updated.textContent = said.replace("{n}", String(n));
    }

    function standingRow(r) {
      var tr = document.createElement("tr");
      var shown = r.shown || {};
      [r.version, r.partidos, r.won, shown.average_place, shown.strength, shown.places, r.group]
        .forEach(function (value) { tr.appendChild(cell("td", value)); });
      return tr;
    }

    function partidoRow(p) {
      var tr = document.createElement("tr");
      tr.appendChild(cell("td", p.id));
      var seats = cell("td", "");
      (p.seats || []).forEach(function (name, i) {  // a name never broken inside (on a phone)
        if (i) seats.appendChild(document.createTextNode(", "));
        var span = cell("span", name);
        span.className = "name";
        seats.appendChild(span);
      });
      tr.appendChild(seats);
      var places = cell("td", "");
      if (p.places && p.places.length) {
        var list = document.createElement("ol");
        list.className = "places";
        p.places.forEach(function (g) {
          var item = cell("li", g.place + ". " + (g.names || []).join(", "));
          if (g.place === 1) item.className = "winner";
          list.appendChild(item);
        });
        places.appendChild(list);
      }
      tr.appendChild(places);
      tr.appendChild(cell("td", p.state + (p.error ? " (" + p.error + ")" : "")));
      var replay = cell("td", "");
      if (p.viewer && p.text) {
        replay.appendChild(link(p.viewer, words.replay));
        replay.appendChild(document.createTextNode(" ("));
        replay.appendChild(link(p.text, words.text));
        replay.appendChild(document.createTextNode(")"));
      }
      if (p.seed) {
        var details = document.createElement("details");
        details.className = "key";
        details.setAttribute("data-id", String(p.id));
        if (opened[String(p.id)]) details.open = true;
        details.appendChild(cell("summary", words.key));
        details.appendChild(cell("code", p.seed));
        replay.appendChild(details);
      }
      tr.appendChild(replay);
      return tr;
    }

    function draw(data) {
      var rows = data.rows || [];
      var recent = data.partidos || [];
      opened = {};  // the deal keys the reader opened stay open
      Array.prototype.forEach.call(partidos.querySelectorAll("details[open]"), function (d) {
        opened[d.getAttribute("data-id")] = true;
      });
      fill(standings, rows.map(standingRow));
      fill(partidos, recent.map(partidoRow));
      show("standings", rows.length > 0);
      show("standings-note", rows.length > 0);
      show("no-standings", rows.length === 0);
      show("partidos", recent.length > 0);
      show("no-partidos", recent.length === 0);
    }

    function poll() {
      if (document.hidden) { window.setTimeout(poll, every); return; }
      var headers = { Accept: "application/json" };
      if (drawnTag) headers["If-None-Match"] = drawnTag;  // unchanged since: 304, no body
      window.fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers })
        .then(function (response) {
          if (response.status === 304) return SAME;
          var kind = response.headers.get("Content-Type") || "";
          // logged out meanwhile: the login page, not news
          if (!response.ok || kind.indexOf("application/json") !== 0) return null;
          tag = response.headers.get("ETag") || "";
          return response.json();
        })
        .then(function (data) {
          failing = !data;
          if (data && data !== SAME) { draw(data); drawnTag = tag; }
          if (data) drawnAt = Date.now();  // the tables are as the server has them now
          age();
        })
        .catch(function () { failing = true; age(); /* the server is away for a moment: asked again below */ })
        .then(function () { window.setTimeout(poll, every); });
    }

    window.setTimeout(poll, every);
    window.setInterval(age, 1000);
  });
})();
