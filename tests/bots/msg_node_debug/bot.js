// Raw protocol in Node: logs its hand with console.log (stdout!) before its first play reply
// (a `protocol` fault whose detail must say: console.error).
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    process.stdout.write(JSON.stringify({ type: "ready", id: msg.id, name: "msg_node_debug" }) + "\n");
  } else if (msg.type === "play") {
    console.log("my hand", msg.hand); // the mistake: console.log writes to stdout
    process.stdout.write(JSON.stringify({ type: "play", id: msg.id, card: msg.legal[0] }) + "\n");
  } else if (msg.type === "bye") {
    process.exit(0);
  }
});
