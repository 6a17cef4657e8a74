#!/usr/bin/env node
// "Básico": a Tute Cabrero player in plain Node.js, speaking the raw player
// protocol (docs/protocol.md). No npm packages: only the built-in readline.
//
// The referee writes one JSON object per line on our stdin. Requests (`hello`,
// `play`) carry an `id` and need exactly one reply line on stdout; everything
// else is an event we may use or ignore. stdout is ONLY for replies: debugging
// goes to stderr (console.error), which the referee saves to a log.
"use strict";

const readline = require("readline");

// ------------------------------------------------------------------ cards
// A card is a string "<rank>-<suit>", e.g. "1-oro", "12-basto".
const SUITS = ["oro", "copa", "espada", "basto"];
// Ranks from weakest to strongest inside a suit (rule 5): 1, 3, 12, 11, 10, 7, ... 2.
const ORDER = [2, 4, 5, 6, 7, 10, 11, 12, 3, 1];
const POINTS = { 1: 11, 3: 10, 12: 4, 11: 3, 10: 2 }; // every other rank: 0

const rank = (card) => Number(card.split("-")[0]);
const suit = (card) => card.split("-")[1];
const strength = (card) => ORDER.indexOf(rank(card)); // 0 (the 2) .. 9 (the as)
const points = (card) => POINTS[rank(card)] || 0;

// Whether `card` beats `winning`, the card taking the trick so far: a stronger
// card of the same suit, or a trump against a non-trump.
function beats(card, winning, trump) {
  if (suit(card) === suit(winning)) return strength(card) > strength(winning);
  return suit(card) === trump && suit(winning) !== trump;
}

// The card winning a trick so far; `table` is [{seat, card}, ...] in playing order.
function winningCard(table, trump) {
  let winning = table[0].card;
  for (const { card } of table.slice(1)) if (beats(card, winning, trump)) winning = card;
  return winning;
}

// ------------------------------------------------------------------ what we remember
let trump = null; // suit of trump in the current mano (from mano_start)
let sung = new Set(); // cantos sung by anybody in this mano (from sang events)

// ------------------------------------------------------------------ decisions
// The canto to sing now (only asked when may_sing is true), or null.
function chooseCanto(hand) {
  const has = (c) => hand.includes(c);
  const all = (r) => SUITS.every((s) => has(`${r}-${s}`));
  if (all(12) || all(11)) return "tute"; // ends the mano at once: we are safe
  const pair = (s) => has(`12-${s}`) && has(`11-${s}`);
  if (pair(trump) && !sung.has("cuarenta")) return "cuarenta"; // the trump pair: +40
  for (const s of SUITS) {
    // A non-trump pair: +20. (The trump pair is always "cuarenta", never a veinte.)
    if (s !== trump && pair(s) && !sung.has(`veinte-${s}`)) return `veinte-${s}`;
  }
  return null;
}

// Cheapest first: fewest points, then weakest.
const cheaper = (a, b) => points(a) - points(b) || strength(a) - strength(b);

// The card to play: a simple "a más" player (like sample_players/a_mas).
// `legal` is the request's list of the cards we may play (protocol revision 1.3):
// the referee has already applied follow suit and beat, trump and beat. Any
// other card would be a renuncio, so we only ever choose among these.
function chooseCard(legal, table) {
  if (table.length === 0) {
    // Leading: our strongest non-trump card, keeping trumps to win later.
    const plain = legal.filter((c) => suit(c) !== trump);
    const pool = plain.length > 0 ? plain : legal;
    return pool.reduce((best, c) => (strength(c) > strength(best) ? c : best));
  }
  // Following: the cheapest card that wins the trick, else the cheapest card.
  const winning = winningCard(table, trump);
  const winners = legal.filter((c) => beats(c, winning, trump));
  return [...(winners.length > 0 ? winners : legal)].sort(cheaper)[0];
}

// ------------------------------------------------------------------ the protocol
function reply(obj) {
  // One JSON object per line. On Linux, writes to a pipe are synchronous.
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function onPlay(req) {
  if (req.may_sing) {
    const canto = chooseCanto(req.hand);
    // Tute is sung WITHOUT a card (a card beside it is a protocol fault).
    if (canto === "tute") return reply({ type: "play", id: req.id, sing: "tute" });
    if (canto) return reply({ type: "play", id: req.id, card: chooseCard(req.legal, req.table), sing: canto });
  }
  reply({ type: "play", id: req.id, card: chooseCard(req.legal, req.table) });
}

function onMessage(msg) {
  switch (msg.type) {
    case "hello": // once per process: answer within limits.init_ms
      console.error(`hello: I am ${msg.name}, limits ${JSON.stringify(msg.limits)}`);
      return reply({ type: "ready", id: msg.id, name: "Básico (Node.js)" });
    case "mano_start": // a new mano: new trump, no cantos sung yet
      trump = msg.trump;
      sung = new Set();
      return;
    case "sang":
      sung.add(msg.canto);
      return;
    case "play": // answer within limits.move_ms
      return onPlay(msg);
    case "bye":
      process.exit(0);
    default: // partido_start, played, trick_end, mano_end, ...: not needed here
      return;
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    console.error(`not JSON, ignored: ${line}`);
    return;
  }
  try {
    onMessage(msg);
  } catch (err) {
    // A bug in our strategy: log it and still answer a play with a legal card,
    // since a missing reply would be a timeout (and a disqualification).
    console.error(`error on ${line}: ${err.stack}`);
    if (msg.type === "play") {
      reply({ type: "play", id: msg.id, card: msg.legal[0] });
    }
  }
});
rl.on("close", () => process.exit(0)); // end of input: the referee is gone
