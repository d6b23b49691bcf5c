// The dice's proof, checked in this browser: fetch the table's record and recompute, with Web Crypto, each
// revealed hand's SHA-256 against its commitment and each throw from the seeds, as
// hazard.table.fair.commit_reveal derives it (docs/fairness.md). No library; everything shown is textContent.
"use strict";

(function () {
  const ACCEPTED = 216; // 6 × 36: six byte values for each of the 36 throws; bytes of 216 or more are skipped

  function bytesOf(hex) {
    if (typeof hex !== "string" || !/^([0-9a-f]{2})+$/.test(hex)) throw new Error("not hex: " + hex);
    return new Uint8Array(hex.match(/../g).map((pair) => parseInt(pair, 16)));
  }

  function hexOf(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function sha256Hex(seedHex) {
    return hexOf(await crypto.subtle.digest("SHA-256", bytesOf(seedHex)));
  }

  // Throw `nonce` of a hand: HMAC-SHA256(key = server seed, "client_seed:nonce:cursor"); the first byte
  // below 216, k = byte % 36, shows k / 6 + 1 and k % 6 + 1; a block with none goes on to the next cursor.
  async function fairThrow(seedHex, clientSeed, nonce) {
    const key = await crypto.subtle.importKey("raw", bytesOf(seedHex), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    const text = new TextEncoder();
    for (let cursor = 0; ; cursor += 1) {
      const message = text.encode(clientSeed + ":" + nonce + ":" + cursor);
      const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
      for (const byte of block) {
        if (byte < ACCEPTED) {
          const k = byte % 36;
          return Math.floor(k / 6) + 1 + "-" + ((k % 6) + 1);
        }
      }
    }
  }

  window.hazardProof = { fairThrow, sha256Hex }; // the derivation, for a test to compare with Python's

  function mark(cell, ok, text) {
    cell.textContent = (ok ? "✔ " : "✘ ") + text;
    cell.classList.add(ok ? "ok" : "bad");
  }

  // One hand: the record's hand against what the page shows, and both against what the seeds give.
  // Returns the problems found (empty: all well) and how many throws were recomputed.
  async function checkHand(section, hand) {
    const number = section.dataset.hand;
    const verdict = section.querySelector(".hand-verdict");
    const rows = Array.from(section.querySelectorAll("tr[data-nonce]"));
    const problems = [];
    if (!hand) {
      problems.push("hand " + number + " is not in the record");
    } else if (hand.commitment !== section.dataset.commitment) {
      problems.push("hand " + number + ": the record's commitment is not the one this page shows");
    }
    if (problems.length || hand.server_seed === null || hand.server_seed === undefined) {
      rows.forEach((row) => {
        const cell = row.querySelector(".check");
        if (problems.length) mark(cell, false, "not checked: " + problems[0]);
        else cell.textContent = "when the dice pass";
      });
      if (problems.length) {
        verdict.textContent = "✘ " + problems.join("; ");
        verdict.classList.add("bad");
      } else {
        verdict.textContent = "The server seed is still secret: this hand's throws can be checked here once the dice pass.";
      }
      return { problems, pending: !problems.length, throws: 0 };
    }
    let seedOk = false;
    try {
      seedOk = (await sha256Hex(hand.server_seed)) === hand.commitment;
    } catch (error) {
      seedOk = false;
    }
    if (!seedOk) {
      problems.push("hand " + number + ": SHA-256 of the server seed revealed is not the commitment shown before the hand");
    }
    const clientSeed = hand.client_seed || "";
    if (clientSeed !== section.dataset.clientSeed) {
      problems.push("hand " + number + ": the record's players' seed is not the one this page shows");
    }
    const recorded = new Map((hand.throws || []).map((t) => [String(t.nonce), t.roll]));
    if ((hand.throws || []).length !== rows.length) {
      problems.push("hand " + number + ": the record has " + (hand.throws || []).length + " throws, this page shows " + rows.length);
    }
    let checked = 0;
    for (const row of rows) {
      const cell = row.querySelector(".check");
      const nonce = row.dataset.nonce;
      const inRecord = recorded.get(nonce);
      let given = null;
      if (seedOk) {
        try {
          given = await fairThrow(hand.server_seed, clientSeed, Number(nonce));
        } catch (error) {
          given = null;
        }
      }
      const throwNumber = Number(nonce) + 1;
      if (!seedOk) {
        mark(cell, false, "the server seed does not match its commitment");
      } else if (given !== inRecord || given !== row.dataset.roll) {
        const said = "the seeds give " + given + ", the record says " + inRecord + (inRecord !== row.dataset.roll ? " and this page " + row.dataset.roll : "");
        mark(cell, false, said);
        problems.push("hand " + number + ", throw " + throwNumber + ": " + said);
      } else {
        mark(cell, true, given);
        checked += 1;
      }
    }
    if (problems.length) {
      const said = problems.map((problem) => problem.replace(/^hand \d+(, |: )/, ""));
      verdict.textContent = "✘ Hand " + number + " does not check: " + said.join("; ") + ".";
      verdict.classList.add("bad");
    } else {
      verdict.textContent =
        "✔ Proved here: SHA-256 of the server seed revealed is the commitment shown before the hand, so the seed was fixed before the first throw; and " +
        (rows.length === 1 ? "its one throw follows" : "all " + rows.length + " throws follow") +
        " from that seed and the players' seed.";
      verdict.classList.add("ok");
    }
    return { problems, pending: false, throws: checked };
  }

  async function check() {
    const main = document.getElementById("proof");
    const overall = document.getElementById("proof-verdict");
    if (!main || !overall) return;
    if (!window.crypto || !crypto.subtle) {
      overall.textContent =
        "This browser gives no Web Crypto to a page not served over https (or from this machine): check the record with hazard verify instead.";
      overall.className = "verdict done bad";
      return;
    }
    try {
      const answer = await fetch("/api/tables/" + main.dataset.game + "/record", { credentials: "same-origin" });
      if (!answer.ok) throw new Error("the record could not be fetched (" + answer.status + ")");
      const record = await answer.json();
      const hands = new Map((record.hands || []).map((hand) => [String(hand.hand), hand]));
      const problems = [];
      let throws = 0;
      let revealed = 0;
      let pending = 0;
      for (const section of main.querySelectorAll("section.hand[data-hand]")) {
        const found = await checkHand(section, hands.get(section.dataset.hand));
        problems.push(...found.problems);
        throws += found.throws;
        if (found.pending) pending += 1;
        else if (!found.problems.length) revealed += 1;
      }
      if (problems.length) {
        overall.textContent = "✘ The dice do not check: " + problems[0] + (problems.length > 1 ? " (and " + (problems.length - 1) + " more)" : "") + ".";
        overall.className = "verdict done bad";
      } else if (!revealed) {
        overall.textContent =
          "Nothing to check yet: no hand has ended, so no server seed is revealed. The hand in play is checked here when the dice pass.";
        overall.className = "verdict done pending";
      } else {
        overall.textContent =
          "✔ Checked in your browser: " + throws + " throw" + (throws === 1 ? "" : "s") + " of " + revealed + " hand" + (revealed === 1 ? "" : "s") +
          " follow from seeds fixed before they were thrown" + (pending ? "; the hand in play is checked when the dice pass." : ".");
        overall.className = "verdict done ok";
      }
    } catch (error) {
      overall.textContent = "✘ The check could not run: " + error.message;
      overall.className = "verdict done bad";
    }
  }

  check();
})();
