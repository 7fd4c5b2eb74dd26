// A random bot for any Sleuth game in Node.js, speaking the bot protocol (docs/bot-protocol.md).
//
//     sleuth play fox --bots 'cmd:node examples/bots/random_bot.js',random -n 10 --no-db
//
// One JSON message per line on stdin, one answer per line on stdout: "ready" to each "start",
// an "action" to each "act" (one of the legal actions listed, drawn with a generator seeded by
// the decision's seed, so that the same game plays the same), nothing to "end".
"use strict";
const readline = require("readline");

const PROTOCOL = 1;

// mulberry32: a small seeded generator (JavaScript's Math.random cannot be seeded).
function generator(seed) {
  let a = Number(BigInt.asUintN(32, BigInt(seed)));
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function say(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

let events = [];
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  // Seeds are 64-bit integers: read them as text, since a JavaScript number holds 53 bits.
  const message = JSON.parse(line.replace(/"seed":(-?\d+)/, '"seed":"$1"'));
  if (message.type === "start") {
    events = [];
    say({ type: "ready", protocol: PROTOCOL, name: "random (Node.js)" });
  } else if (message.type === "act") {
    events.push(...message.events); // a real bot reads its view from these
    // "legal" lists every legal action, or the first 1000 when "more" is true: any is fine.
    const random = generator(message.seed);
    say({ type: "action", action: message.legal[Math.floor(random() * message.legal.length)] });
  } else if (message.type !== "end") {
    say({ type: "error", message: `unknown message type ${message.type}` });
  }
});
