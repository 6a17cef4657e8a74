// Raw protocol in Node: answers hello, then dies of a TypeError on its first play request
// (a `crash` whose detail must name the exception and bot.js's line).
const readline = require("readline");

function chooseCard(req) {
  return req.cards.map((c) => c)[0]; // the mistake: the request has no `cards` (it is `legal`)
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    process.stdout.write(JSON.stringify({ type: "ready", id: msg.id, name: "msg_node_crash" }) + "\n");
  } else if (msg.type === "play") {
    process.stdout.write(JSON.stringify({ type: "play", id: msg.id, card: chooseCard(msg) }) + "\n");
  } else if (msg.type === "bye") {
    process.exit(0);
  }
});
