// Catches its own bug as sample_players/node_basico does: the stack to stderr, legal[0] played.
// Never a fault; `arena check` must still say its log holds the traces.
"use strict";
const readline = require("readline");

function chooseCard(msg) {
  return msg.nothing.card; // the bug: a TypeError at every play
}

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  try {
    if (msg.type === "hello") reply({ type: "ready", id: msg.id, name: "trial caught" });
    else if (msg.type === "play") reply({ type: "play", id: msg.id, card: chooseCard(msg) });
    else if (msg.type === "review") reply({ type: "review", id: msg.id, accuse: null });
    else if (msg.type === "bye") process.exit(0);
  } catch (err) {
    console.error(`error on ${line}: ${err.stack}`);
    if (msg.type === "play") reply({ type: "play", id: msg.id, card: msg.legal[0] });
  }
});
rl.on("close", () => process.exit(0));
