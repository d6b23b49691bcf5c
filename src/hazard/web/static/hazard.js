// hazard's pages: follow a table's live socket, swap in its view on every update, and send actions.
// Everything shown is rendered by the server and escaped there; this script only sets textContent.
"use strict";

(function () {
  const body = document.body;
  const message = document.getElementById("message");

  function say(text, ok) {
    if (!message) return;
    message.textContent = text || "";
    message.className = "message" + (text ? (ok ? " ok" : " error") : "");
  }

  function randomHex(count) {
    const bytes = new Uint8Array(count);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function clientId() {
    return randomHex(12);
  }

  async function post(url, data, role) {
    const headers = { "content-type": "application/json" };
    if (role) headers["x-hazard-role"] = role;
    const response = await fetch(url, {
      method: "POST",
      headers: headers,
      body: JSON.stringify(data),
      credentials: "same-origin",
    });
    let answer = {};
    try {
      answer = await response.json();
    } catch (e) {
      answer = { error: "the server answered " + response.status };
    }
    // A refusal reads as a person would say it, then what the seat can do now (the server words both).
    const said = [answer.said || answer.error || "The server refused it (" + response.status + ").", answer.next];
    if (!response.ok) throw new Error(said.filter(Boolean).join(" "));
    return answer;
  }

  // --- the lobby -----------------------------------------------------------------------------------------
  const newTable = document.getElementById("new-table");
  if (newTable) {
    newTable.addEventListener("submit", async (event) => {
      event.preventDefault();
      const form = new FormData(newTable);
      const data = { dice: form.get("dice"), money: form.get("money"), label: form.get("label") || "" };
      const file = form.get("ruleset_file");
      if (file && file.size) {
        if (file.size > 65536) return say("That ruleset file is larger than 64 KiB.");
        data.ruleset_toml = await file.text();
      } else {
        data.ruleset = form.get("ruleset");
      }
      const payFile = form.get("paytable_file");
      if (payFile && payFile.size) {
        if (payFile.size > 65536) return say("That paytable file is larger than 64 KiB.");
        data.paytable_toml = await payFile.text();
      } else if (form.get("paytable")) {
        data.paytable = form.get("paytable");
      }
      if (form.get("stakes")) data.stakes = form.get("stakes");
      if (form.get("bot_unit")) data.bot_unit = form.get("bot_unit");
      if (form.get("bot_staking")) data.bot_staking = form.get("bot_staking");
      try {
        const made = await post("/api/tables", data);
        window.location.href = "/tables/" + made.id + (data.dice === "typed" ? "/referee" : "");
      } catch (error) {
        say(error.message);
      }
    });
  }

  // --- a table -------------------------------------------------------------------------------------------
  const game = body.dataset.game;
  const mode = body.dataset.mode || "table";
  const root = document.getElementById("table");
  if (!game || !root) return;
  let seq = Number(body.dataset.seq || "0");
  let refreshing = null;
  let dice = { a: null, b: null };

  function remembered() {
    const values = {};
    root.querySelectorAll("input[name]:not([type=file])").forEach((input) => {
      const form = input.closest("form");
      const key = (form ? form.dataset.template || form.id : "") + "|" + input.name;
      values[key] = input.value;
    });
    const focused = document.activeElement;
    let focus = null;
    if (focused && focused.name && root.contains(focused)) {
      const form = focused.closest("form");
      focus = (form ? form.dataset.template || form.id : "") + "|" + focused.name;
    }
    return { values, focus };
  }

  function restore(saved) {
    root.querySelectorAll("input[name]:not([type=file])").forEach((input) => {
      const form = input.closest("form");
      const key = (form ? form.dataset.template || form.id : "") + "|" + input.name;
      if (key in saved.values) input.value = saved.values[key];
      if (key === saved.focus) input.focus();
    });
  }

  // --- the turn line: focus, the tab's title, the dice thrown, the strip's height ---------------------------
  // A keyboard player plays a round with Enter alone: the button he pressed is gone with the view it was in,
  // so focus goes to the same action's button in the new view, or else to the turn line's main button.
  const baseTitle = document.title.replace(/^Your turn · /, "");
  function turnState() {
    const focused = document.activeElement;
    const nothing = !focused || focused === document.body;
    const inRoot = !nothing && root.contains(focused);
    const throws = root.querySelector(".throws");
    return {
      action: inRoot && focused.dataset ? focused.dataset.action || null : null,
      // nothing focused (the pressed button went with the old view) or a button of the turn line
      turnFocus: nothing || (inRoot && Boolean(focused.closest(".turnline"))),
      typing: inRoot && (focused.tagName === "INPUT" || focused.tagName === "SELECT" || focused.tagName === "TEXTAREA"),
      throwKey: throws ? throws.dataset.throwKey || "" : "",
      mine: Boolean(root.querySelector(".view[data-mine='1']")),
    };
  }

  function afterSwap(before) {
    const view = root.querySelector(".view");
    const mine = Boolean(view && view.dataset.mine === "1");
    document.title = (mine ? "Your turn · " : "") + baseTitle;
    if (!before.typing) {
      const same = before.action
        ? Array.from(root.querySelectorAll("button[data-action]")).find((b) => b.dataset.action === before.action)
        : null;
      const main = root.querySelector(".turnline .moves button.primary") || root.querySelector(".turnline .moves button");
      const target = same || (before.turnFocus ? main : null);
      if (target && document.activeElement !== target) target.focus({ preventScroll: true });
    }
    const throws = root.querySelector(".throws");
    if (throws && throws.dataset.throwKey && throws.dataset.throwKey !== before.throwKey) {
      throws.classList.add("thrown"); // the CSS rolls the new dice, unless the reader asks for less motion
      body.dataset.thrown = String(Number(body.dataset.thrown || "0") + 1); // how many it has rolled
    }
    if (mine && !before.mine) chime();
    stripHeight();
  }

  // An optional tone when it becomes the seat's turn: off unless the player turns it on (kept in this browser).
  function soundOn() {
    try {
      return window.localStorage.getItem("hazard-sound") === "on";
    } catch (error) {
      return false;
    }
  }
  function wireSound() {
    const toggle = root.querySelector(".turnline button.sound");
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    toggle.addEventListener("click", () => {
      try {
        window.localStorage.setItem("hazard-sound", soundOn() ? "off" : "on");
      } catch (error) {
        // no storage: the tone stays off
      }
      toggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    });
  }
  let audio = null;
  function chime() {
    if (!soundOn() || !window.AudioContext) return;
    try {
      audio = audio || new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.3);
    } catch (error) {
      // a browser that will not play: the title still says it
    }
  }

  // The message bar sits just above the turn line's strip at the foot of a phone's screen, not over it.
  function stripHeight() {
    const strip = root.querySelector(".turnline");
    const height = strip && getComputedStyle(strip).position === "fixed" ? strip.offsetHeight : 0;
    document.documentElement.style.setProperty("--strip", height + "px");
  }

  // Fetch the view and swap it in. A request made while one is on its way asks for one more fetch after it:
  // the one on its way may have been answered before the entry that asked was written, and a page that kept
  // its answer would stand at an old entry until the table moved again.
  let again = false;
  let lastView = null;
  async function swap() {
    const response = await fetch("/tables/" + game + "/view?mode=" + mode, { credentials: "same-origin" });
    if (response.status === 429) {
      // Too many requests from this address: wait as told, then fetch again.
      const wait = Number(response.headers.get("retry-after") || "1");
      await new Promise((done) => setTimeout(done, Math.min(Math.max(wait, 0.1), 10) * 1000));
      again = true;
      return;
    }
    if (!response.ok) return;
    const html = await response.text();
    if (html === lastView) return; // nothing changed: the page, its focus and its dice stay as they are
    lastView = html;
    const saved = remembered();
    const before = turnState();
    root.innerHTML = html;
    restore(saved);
    afterSwap(before);
    const view = root.querySelector(".view");
    if (view) seq = Math.max(seq, Number(view.dataset.seq));
    dice = { a: null, b: null };
    wire();
    if (down) reconnecting(true);  // a view swapped in while the socket is down is as stale as the last
  }

  function refresh() {
    again = true;
    if (refreshing) return refreshing;
    refreshing = (async () => {
      try {
        while (again) {
          again = false;
          await swap();
        }
      } catch (error) {
        // the server is out of reach: the socket's reconnection asks again
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  // Send one action; once it is taken, the form it came from (by its template) is emptied at once, ready for
  // the next, and the view is fetched; one refused keeps what was typed, to be put right. Emptied after the
  // fetch, it would wipe what was typed meanwhile into a view the socket had swapped in first (and an empty
  // command sent is a throw).
  async function act(text, role, template) {
    say("");
    let taken = false;
    try {
      const done = await post(
        "/api/tables/" + game + "/actions",
        { action: text, id: clientId(), based_on: seq },
        role,
      );
      say(done.events.join(" · ") || "done", true);
      taken = true;
    } catch (error) {
      say(error.message);
    }
    if (taken && template) {
      root.querySelectorAll("form.act").forEach((form) => {
        if (form.dataset.template === template) form.reset();
      });
    }
    await refresh();
  }

  function fill(template, form) {
    return template.replace(/\{(\w+)\}/g, (_, name) => {
      const input = form.elements.namedItem(name);
      return input ? input.value.trim() : "";
    });
  }

  // --- side bets: the figures of the one being written, and the sources' bets in one tap ------------------
  // The figures come from the server's exact analyser (/api/bet), its values written in the table's money
  // style (the form's data-money); only the latest question's answer is shown.
  let previewTimer = null;
  let previewAsked = 0;
  function preview(form) {
    const output = form.querySelector(".preview");
    if (!output) return;
    clearTimeout(previewTimer);
    const asked = ++previewAsked;
    previewTimer = setTimeout(async () => {
      const proposition = form.elements.namedItem("proposition").value.trim();
      if (!proposition) return (output.textContent = "");
      const query = new URLSearchParams({
        proposition: proposition,
        odds: form.elements.namedItem("odds").value.trim() || "1",
        amount: form.elements.namedItem("amount").value.trim() || "1",
        money: form.dataset.money || "decimal",
      });
      let response, answer;
      try {
        response = await fetch("/api/bet?" + query.toString());
        answer = await response.json();
      } catch (error) {
        answer = { error: "no figures: the server did not answer" };
      }
      if (asked !== previewAsked) return;
      if (!response || !response.ok) return (output.textContent = answer.said || answer.error || "no figures");
      output.textContent =
        "wins with probability " + answer.probability + " (" + answer.probability_float.toFixed(4) + "); " +
        "fair odds " + answer.fair_odds + "; worth " + answer.backer_value_text + " to you at " +
        answer.odds_text + ", " + answer.layer_value_text + " to whoever takes it";
    }, 250);
  }

  // One tap offers a source's bet at evens, for the form's amount; the form is kept as it is, so that the
  // next tap offers another for the same amount.
  function sourceBets(form) {
    form.querySelectorAll("button.source-bet").forEach((button) => {
      button.addEventListener("click", () => {
        const amount = form.elements.namedItem("amount").value.trim() || "1";
        act("offer " + amount + " on " + button.dataset.proposition + " at evens", null, null);
      });
    });
  }

  // The seat's own seed for each hand of fair dice, drawn here (Web Crypto) as soon as the page shows the
  // hand's commitment: the server, committed already, cannot know it, so one honest page at the table keeps
  // the server from choosing the throws. The table takes one a seat a hand, before its first throw; a
  // refusal (another page of the seat was first, or the dice were thrown before it came) is nobody's
  // mistake, so the player is not shown it.
  const seeded = new Set();
  async function ownSeed() {
    const marker = root.querySelector("[data-seed-hand]");
    if (!marker) return;
    const hand = Number(marker.dataset.seedHand);
    if (!hand || seeded.has(hand)) return;
    seeded.add(hand);
    try {
      await post("/api/tables/" + game + "/seed", { hand: hand, seed: randomHex(16) });
    } catch (error) {
      // refused or lost: the next hand's commitment brings the next seed
    }
  }

  function wire() {
    ownSeed();
    wireSound();
    root.querySelectorAll("button[data-action]").forEach((button) => {
      button.addEventListener("click", () => {
        if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
        act(button.dataset.action, button.dataset.role);
      });
    });
    root.querySelectorAll("form.act").forEach((form) => {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const text = fill(form.dataset.template, form).replace(/ at $/, "");
        act(text, form.classList.contains("host") ? "host" : null, form.dataset.template);
      });
      if (form.classList.contains("offer")) {
        form.addEventListener("input", () => preview(form));
        preview(form);
        sourceBets(form);
      }
    });
    const join = root.querySelector("#join");
    if (join) {
      join.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          await post("/api/tables/" + game + "/seats", {
            name: join.elements.namedItem("name").value,
            bankroll: join.elements.namedItem("bankroll").value,
          });
          window.location.reload();
        } catch (error) {
          say(error.message);
        }
      });
    }
    const bot = root.querySelector("#bot");
    if (bot) {
      bot.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const seated = await post(
            "/api/tables/" + game + "/bots",
            {
              name: bot.elements.namedItem("name").value,
              bankroll: bot.elements.namedItem("bankroll").value || "100",
              policy: bot.elements.namedItem("policy").value,
            },
            "host",
          );
          say(seated.events.join(" · "), true);
        } catch (error) {
          say(error.message);
        }
        await refresh();
      });
    }
    // The host seats a late arrival, and is given the link that hands the arrival his seat.
    const late = root.querySelector("#late");
    if (late) {
      late.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const seated = await post(
            "/api/tables/" + game + "/seats",
            {
              name: late.elements.namedItem("name").value,
              bankroll: late.elements.namedItem("bankroll").value || "100",
            },
            "host",
          );
          // The host is given a claim link for the late arrival, never his seat's key: it takes the seat once.
          const link = window.location.origin + seated.claim_url;
          say(seated.seat + " is seated. Give " + seated.seat + " this link to take the seat (once, soon): " + link, true);
        } catch (error) {
          say(error.message);
        }
        await refresh();
      });
    }
    const close = root.querySelector("#close");
    if (close) {
      close.addEventListener("click", async () => {
        if (!window.confirm("Close this table for good?")) return;
        try {
          await post("/api/tables/" + game + "/close", {}, "host");
        } catch (error) {
          say(error.message);
        }
        await refresh();
      });
    }
    root.querySelectorAll(".die").forEach((row) => {
      row.querySelectorAll("button[data-face]").forEach((button) => {
        button.addEventListener("click", () => {
          dice[row.dataset.die] = Number(button.dataset.face);
          row.querySelectorAll("button").forEach((b) => b.classList.toggle("chosen", b === button));
          const enter = root.querySelector("#enter-roll");
          const shown = root.querySelector("#roll-shown");
          if (dice.a && dice.b) {
            enter.disabled = false;
            shown.textContent = dice.a + "-" + dice.b;
          }
        });
      });
    });
    const enter = root.querySelector("#enter-roll");
    if (enter) {
      enter.addEventListener("click", () => {
        if (dice.a && dice.b) act(dice.a + "-" + dice.b, "host");
      });
    }
  }

  // --- the socket down ------------------------------------------------------------------------------------
  // While the socket is down the page may stand at an old entry, so its controls are disabled and say why;
  // once the socket is back and the view fetched again (the resync), they come back, and what the message
  // bar said before the drop, stale now, is cleared.
  let down = false;
  const NOTICE = "Reconnecting to the table… the controls come back once this page has caught up.";
  function reconnecting(on) {
    down = on;
    body.classList.toggle("offline", on);
    root.querySelectorAll("button, input, select, textarea").forEach((control) => {
      if (on && !control.disabled) {
        control.disabled = true;
        control.dataset.offline = "1";  // only these are enabled again: some start disabled (#enter-roll)
      } else if (!on && control.dataset.offline) {
        control.disabled = false;
        delete control.dataset.offline;
      }
    });
    root.querySelectorAll(".controls, .side-bets").forEach((card) => {
      let notice = card.querySelector(":scope > .reconnecting");
      if (on && !notice) {
        notice = document.createElement("p");
        notice.className = "reconnecting";
        notice.setAttribute("role", "status");
        notice.textContent = NOTICE;
        const heading = card.querySelector(":scope > h2");
        card.insertBefore(notice, heading ? heading.nextSibling : card.firstChild);
      } else if (!on && notice) {
        notice.remove();
      }
    });
  }

  async function resync() {
    await refresh();
    say("");
    reconnecting(false);
  }

  // The live socket: versioned by the record's entry numbers; on a drop, reconnect with the last one seen.
  let delay = 500;
  function follow() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + window.location.host + "/api/tables/" + game + "/live?since=" + seq);
    socket.addEventListener("open", () => {
      delay = 500;
      if (down) resync();
    });
    socket.addEventListener("message", (event) => {
      // The page's entry number is the view's it shows (actions are sent as based on it), so an update only
      // asks for the view; the view swapped in moves the number.
      const update = JSON.parse(event.data);
      if (update.seq > seq || update.type === "state") refresh();
    });
    socket.addEventListener("close", () => {
      reconnecting(true);
      setTimeout(follow, delay);
      delay = Math.min(delay * 2, 5000);
    });
  }

  // The invite's QR code, drawn in place of its link: the server's SVG, fetched from this origin and copied
  // element by element, only the drawing's own elements and attributes (the pages hold no <img>, and
  // nothing of the file but its squares reaches the page).
  const SVG_NS = "http://www.w3.org/2000/svg";
  const SVG_KEEP = { svg: ["width", "height", "viewBox"], g: ["transform"], path: ["d", "fill", "stroke", "transform"] };
  function svgCopy(node) {
    const name = node.localName;
    if (node.namespaceURI !== SVG_NS || !SVG_KEEP[name]) return null;
    const copy = document.createElementNS(SVG_NS, name);
    SVG_KEEP[name].forEach((attribute) => {
      if (node.hasAttribute(attribute)) copy.setAttribute(attribute, node.getAttribute(attribute));
    });
    Array.from(node.children).forEach((child) => {
      const kept = svgCopy(child);
      if (kept) copy.append(kept);
    });
    return copy;
  }

  async function drawQr(link) {
    try {
      const response = await fetch(link.getAttribute("href"), { credentials: "same-origin" });
      if (!response.ok) return;
      const parsed = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
      const drawing = svgCopy(parsed.documentElement);
      if (!drawing) return;
      const size = Number(drawing.getAttribute("width")) || 0;
      if (size && !drawing.hasAttribute("viewBox")) drawing.setAttribute("viewBox", "0 0 " + size + " " + size);
      drawing.setAttribute("class", "qr");
      drawing.setAttribute("role", "img");
      drawing.setAttribute("aria-label", "A QR code of the table's link, to open it on a phone");
      link.replaceWith(drawing);
    } catch (error) {
      // the link stays: it opens the code itself
    }
  }

  // The invite: the table's link in full (as this page was reached), copied by the button; where the
  // browser refuses the clipboard (no https, no permission) the field is selected to copy by hand.
  function invite() {
    const field = document.getElementById("invite-link");
    const copy = document.getElementById("copy-invite");
    const said = document.getElementById("invite-said");
    const qr = document.getElementById("invite-qr");
    if (qr) drawQr(qr);
    if (!field) return;
    const full = new URL(field.dataset.invite, window.location.href).href;
    if (!copy) {
      field.textContent = full; // the big screen: shown, not copied
      return;
    }
    field.value = full;
    copy.addEventListener("click", async () => {
      try {
        if (!navigator.clipboard) throw new Error("no clipboard");
        await navigator.clipboard.writeText(field.value);
        said.textContent = "Copied: send it to the player you invite.";
      } catch (error) {
        field.focus();
        field.select();
        said.textContent = "This browser would not copy it: the link is selected, copy it by hand.";
      }
    });
  }

  invite();
  wire();
  stripHeight();
  window.addEventListener("resize", stripHeight);
  follow();
})();
