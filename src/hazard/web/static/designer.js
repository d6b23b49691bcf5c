// The ruleset designer (/designer): on every change, the page's rules written as a ruleset file's TOML are
// posted to /api/designer/odds, which reads them with the ruleset reader itself; its figures are shown, or
// its refusal next to the control that made it, the last figures kept and marked as not current.
"use strict";
(() => {
  const form = document.getElementById("designer");
  if (!form) return;
  const start = form.dataset.start;
  const state = document.getElementById("figures-state");
  const said = document.getElementById("designer-said");
  let asked = 0; // the latest change's number: an answer to an earlier one is dropped
  let current = null; // the TOML of the figures shown, while they are current

  // --- the rules as TOML --------------------------------------------------------------------------------
  const text = (value) => JSON.stringify(String(value)).replace(/\u007f/g, "\\u007F"); // a TOML basic string
  const ints = (list) => "[" + list.join(", ") + "]";
  const whole = (value) => (/^-?[0-9]{1,12}$/.test(value.trim()) ? value.trim() : text(value)); // else refused
  const mains = () => [...form.querySelectorAll("input[name=main]:checked")].map((box) => Number(box.value));
  const cell = (main, total) => form.elements["cell-" + main + "-" + total];

  function toml() {
    const f = form.elements;
    const lines = ["id = " + text(f.id.value), "name = " + text(f.name.value)];
    if (f.paytable.value) lines.push("paytable = " + text(f.paytable.value));
    lines.push("stakes = " + text(f.stakes.value));
    lines.push("notes = [" + text("Designed in hazard's ruleset designer, starting from " + start + ".") + "]");
    lines.push("", "[source]", "citation = " + text(f.citation.value));
    lines.push("", "[main]", "method = " + text(f.method.value), "mains = " + ints(mains()));
    lines.push("", "[opening]");
    for (const main of mains()) {
      const kinds = { nick: [], out: [], chance: [] };
      for (let total = 2; total <= 12; total += 1) {
        const kind = cell(main, total).value;
        if (kinds[kind]) kinds[kind].push(total);
      }
      lines.push("", "[opening." + main + "]");
      lines.push("nicks = " + ints(kinds.nick), "outs = " + ints(kinds.out), "chances = " + ints(kinds.chance));
    }
    lines.push("", "[dice_passing]", "after_losses = " + whole(f.after_losses.value));
    lines.push("losses = " + text(f.losses.value));
    return lines.join("\n") + "\n";
  }

  // --- the figures ----------------------------------------------------------------------------------------
  const four = (value, digits) => (value === null ? "—" : value.toFixed(digits).replace("-", "−"));
  const signed = (value, digits, none) =>
    value === null ? none : (value < 0 ? "−" : "+") + Math.abs(value).toFixed(digits);

  function put(node, shown, exact) {
    node.textContent = shown;
    if (exact) node.dataset.exact = exact;
    else delete node.dataset.exact;
  }

  function row(tr, label, figures, moved, none) {
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    tr.replaceChildren(th);
    const cells = [
      [four(figures.p_win_float, 4), figures.p_win, ""],
      [signed(moved.p_win_float, 4, none), moved.p_win, "delta"],
      [signed(figures.edge_float, 4, "—"), figures.edge, ""],
      [signed(moved.edge_float, 4, none), moved.edge, "delta"],
      [four(figures.expected_throws_float, 2), figures.expected_throws, ""],
      [signed(moved.expected_throws_float, 2, none), moved.expected_throws, "delta"],
    ];
    for (const [shown, exact, kind] of cells) {
      const td = document.createElement("td");
      if (kind) td.className = kind;
      put(td, shown, exact);
      tr.append(td);
    }
  }

  // As hazard.analysis.kept_change writes it: "+1.25", or "never → 2.53" where one side never passes.
  function keptMove(answer) {
    const before = answer.base.rounds_kept_float;
    const after = answer.figures.rounds_kept_float;
    if (answer.change.rounds_kept !== null) return signed(answer.change.rounds_kept_float, 2, "—");
    if (answer.base.rounds_kept === null && answer.figures.rounds_kept === null) return "—";
    const kept = (value, exact) => (exact === null ? "never" : value === null ? "> 1e308" : value.toFixed(2));
    return kept(before, answer.base.rounds_kept) + " → " + kept(after, answer.figures.rounds_kept);
  }

  function show(answer) {
    const body = document.getElementById("figure-mains");
    const rows = answer.figures.mains.map((main, at) => {
      const tr = document.createElement("tr");
      tr.dataset.main = main.main;
      row(tr, String(main.main), main, answer.change.mains[at], "new");
      return tr;
    });
    body.replaceChildren(...rows);
    row(document.getElementById("figure-overall"), "over a round", answer.figures, answer.change, "—");
    const kept = answer.figures.rounds_kept_float;
    put(document.getElementById("figure-kept"), four(kept, 2), answer.figures.rounds_kept);
    put(document.getElementById("figure-d-kept"), keptMove(answer), answer.change.rounds_kept);
  }

  function mark(fresh, message, control) {
    for (const box of form.querySelectorAll(".said")) box.textContent = "";
    for (const bad of form.querySelectorAll("[aria-invalid]")) bad.removeAttribute("aria-invalid");
    state.dataset.state = fresh ? "current" : "stale";
    state.textContent = fresh
      ? "Current: the odds of the rules below."
      : "Not current: these are the odds of the last rules that could be played; the latest change is refused.";
    document.getElementById("rule-figures").classList.toggle("stale", !fresh);
    if (!fresh && control) {
      const where = control.closest("fieldset") || form;
      const box = where.querySelector(".said") || said;
      box.textContent = message;
      control.setAttribute("aria-invalid", "true");
    }
  }

  async function post(path, data) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(data),
    });
    if (response.ok) return response;
    let answer = {};
    try {
      answer = await response.json();
    } catch (error) {
      answer = {};
    }
    throw new Error(answer.said || answer.error || "The server refused it (" + response.status + ").");
  }

  async function update(control, began) {
    asked += 1;
    const mine = asked;
    const rules = toml();
    try {
      const answer = await (await post("/api/designer/odds", { start, toml: rules })).json();
      if (mine !== asked) return;
      show(answer);
      current = rules;
      mark(true);
    } catch (error) {
      if (mine !== asked) return;
      current = null;
      mark(false, error.message, control);
    }
    said.textContent = "";
    // How long the change took to show, for the benchmark and the tests: from the event to the figures.
    state.dataset.took = String(performance.now() - began);
    state.dataset.updates = String(mine);
  }

  // --- the controls ---------------------------------------------------------------------------------------
  function showColumns() {
    const chosen = new Set(mains().map(String));
    for (const node of form.querySelectorAll(".designer-grid [data-main]")) {
      node.hidden = !chosen.has(node.dataset.main);
    }
  }

  function applyRange(box) {
    const total = Number(box.value);
    for (let main = 2; main <= 12; main += 1) {
      const select = cell(main, total);
      if (box.checked && select.value === "again" && main !== total) select.value = "chance";
      if (!box.checked && select.value === "chance") select.value = "again";
    }
  }

  // A typed field is asked about once typing pauses (its input events); its change event, when it loses
  // the focus, asks only if a pause is still awaited, so that one edit is one request.
  const typed = (control) => control.tagName === "INPUT" && control.type !== "checkbox";
  let typing = 0;
  let waiting = null;
  form.addEventListener("change", (event) => {
    const began = performance.now();
    const control = event.target;
    if (typed(control) && waiting === null) return;
    if (control.name === "main") showColumns();
    if (control.name === "chance") applyRange(control);
    window.clearTimeout(typing);
    waiting = null;
    update(control, began);
  });
  form.addEventListener("input", (event) => {
    if (!typed(event.target)) return;
    const began = performance.now();
    window.clearTimeout(typing);
    waiting = event.target;
    typing = window.setTimeout(() => {
      waiting = null;
      update(event.target, began);
    }, 150);
  });
  form.addEventListener("submit", (event) => event.preventDefault());

  function refuse(message) {
    said.textContent = message;
  }

  document.getElementById("download-toml").addEventListener("click", async () => {
    if (current === null) return refuse("Change the rules to ones that can be played first: the last change is refused.");
    try {
      const file = await (await post("/api/designer/toml", { start, toml: current })).blob();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(file);
      link.download = form.elements.id.value + ".toml";
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } catch (error) {
      refuse(error.message);
    }
  });

  document.getElementById("start-table").addEventListener("click", async () => {
    if (current === null) return refuse("Change the rules to ones that can be played first: the last change is refused.");
    try {
      const data = { ruleset_toml: current, dice: "fair", money: "decimal", label: form.elements.name.value.slice(0, 80) };
      const made = await (await post("/api/tables", data)).json();
      window.location.href = made.url;
    } catch (error) {
      refuse(error.message);
    }
  });

  current = toml(); // the page's figures are the starting ruleset's, written as these rules
})();
