// The side-bet drill (/drill): the server makes each offer and judges each answer by its exact value; the
// page shows the offer, runs its clock (sending "none" when it runs out), and shows the judgement.
"use strict";
(() => {
  const form = document.getElementById("drill-start");
  if (!form) return;
  const $ = (id) => document.getElementById(id);
  const said = $("drill-said");
  let drill = null; // the server's id of the drill under way
  let offer = null; // the offer shown, while it waits for an answer
  let timer = null;
  let deadline = 0;

  async function post(path, data) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(data),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.said || answer.error || "The server refused: " + response.status);
    return answer;
  }

  function value(element, figure) {
    element.textContent = figure.shown;
    element.dataset.exact = figure.exact;
  }

  function show(state) {
    value($("drill-score"), state.score);
    value($("drill-best"), state.best);
    offer = state.offer;
    $("drill-offer").hidden = !offer;
    if (!offer) return;
    $("offer-round").textContent = offer.round;
    $("offer-rounds").textContent = offer.rounds;
    $("offer-level").textContent = offer.level;
    $("offer-stated").textContent = offer.stated;
    $("offer-proposition").textContent = offer.proposition;
    $("offer-pays").textContent =
      (offer.source === "002" ? "One of 002's even-money bets" : "A proposition") + ": " + offer.pays + " if it comes.";
    deadline = performance.now() + offer.seconds * 1000;
    tick();
    clearInterval(timer);
    timer = setInterval(tick, 100);
    $("take").focus();
  }

  function tick() {
    const left = Math.max(0, (deadline - performance.now()) / 1000);
    $("offer-clock").textContent = left.toFixed(1);
    if (left <= 0 && offer) answer("none");
  }

  function judged(j) {
    const took = j.answer === "take" ? "You took it" : j.timed_out ? "Time ran out: refused" : "You refused it";
    $("judged-verdict").textContent =
      "Round " + j.round + ", " + j.proposition + " at " + j.stated + ": " + (j.right ? "right. " : "wrong. ") +
      took + "; the best answer: " + j.best_answer + ".";
    $("drill-judged").hidden = false;
    $("drill-judged").dataset.round = j.round;
    $("judged-fair").textContent = j.fair_odds;
    $("judged-probability").textContent = j.probability;
    value($("judged-value"), j.value);
    value($("judged-points"), j.points);
    value($("judged-missed"), j.missed);
  }

  function over(state) {
    clearInterval(timer);
    $("drill-over").hidden = false;
    $("drill-setup").hidden = false;
    $("over-said").textContent =
      "Score " + state.score.shown + " (the best possible " + state.best.shown + "), " + state.right + " right." +
      (state.kept ? " Kept; your best:" : " Give your name to keep your score.");
    const list = $("over-kept");
    list.replaceChildren();
    for (const kept of state.kept || []) {
      const item = document.createElement("li");
      item.textContent = kept.score.shown + " (" + kept.rounds + " propositions, " + kept.at + ")";
      item.dataset.exact = kept.score.exact;
      list.append(item);
    }
  }

  async function everyones() {
    const response = await fetch("/api/drill/best");
    if (!response.ok) return;
    const scores = (await response.json()).best;
    const list = $("drill-best-scores");
    list.replaceChildren();
    for (const kept of scores) {
      const item = document.createElement("li");
      const score = document.createElement("span");
      const when = document.createElement("span");
      score.textContent = kept.score.shown;
      score.dataset.exact = kept.score.exact;
      when.className = "muted";
      when.textContent = "(" + kept.rounds + " propositions, " + kept.at + ")";
      item.append(score, " " + kept.name + " ", when);
      list.append(item);
    }
    $("drill-none").hidden = scores.length > 0;
  }

  async function answer(given) {
    if (!offer) return;
    const asked = offer;
    offer = null;
    clearInterval(timer);
    try {
      const state = await post("/api/drill/answer", { drill, round: asked.round, answer: given });
      judged(state.judged);
      show(state);
      if (!state.offer) {
        over(state);
        if (state.kept) await everyones();
      }
    } catch (error) {
      said.textContent = error.message;
    }
  }

  $("take").addEventListener("click", () => answer("take"));
  $("refuse").addEventListener("click", () => answer("refuse"));
  document.addEventListener("keydown", (event) => {
    if (!offer || event.target instanceof HTMLInputElement) return;
    if (event.key === "t") answer("take");
    if (event.key === "r") answer("refuse");
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    said.textContent = "";
    const f = form.elements;
    const data = { rounds: Number(f.rounds.value), seconds: Number(f.seconds.value) };
    if (f.name.value.trim()) data.name = f.name.value;
    const seed = new URLSearchParams(location.search).get("seed");
    if (seed !== null && /^[0-9]{1,18}$/.test(seed)) data.seed = Number(seed);
    try {
      const state = await post("/api/drill/start", data);
      drill = state.drill;
      $("drill-over").hidden = true;
      $("drill-judged").hidden = true;
      $("drill-setup").hidden = true;
      show(state);
    } catch (error) {
      said.textContent = error.message;
    }
  });
})();
