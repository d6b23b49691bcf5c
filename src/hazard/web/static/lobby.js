// The lobby's list of open tables, kept up to date (loaded by the lobby page only, beside hazard.js).
// Everything shown comes from the server's JSON and is set as textContent.
"use strict";

(function () {
  // The lobby's list follows the open tables: polled every few seconds while the page is in view, for an
  // hour at most (a lobby left open all night asks nothing); redrawn only when the list changed.
  const tables = document.getElementById("tables");
  if (tables) lobbyList(tables);

  function lobbyPlayers(names) {
    if (names === null || names === undefined) return "";
    return names.length ? "players: " + names.join(", ") : "no players yet";
  }

  function lobbyList(list) {
    let last = null;
    let polls = 0;
    async function poll() {
      if (++polls > 720) return;
      setTimeout(poll, 5000);
      if (document.hidden) return;
      let answer;
      try {
        const response = await fetch("/api/tables", { credentials: "same-origin" });
        if (!response.ok) return;
        answer = await response.json();
      } catch (error) {
        return; // the server is away: the next poll asks again
      }
      const text = JSON.stringify(answer.tables.map((t) => [t.id, t.label, t.ruleset, t.entries, t.players, t.state]));
      if (text === last) return;
      const first = last === null;
      last = text;
      if (first) return; // the page as served shows this list already
      const items = answer.tables.map((t) => {
        const item = document.createElement("li");
        item.dataset.table = t.id;
        const link = document.createElement("a");
        link.href = "/tables/" + t.id;
        link.textContent = t.label;
        const about = document.createElement("span");
        about.className = "muted";
        about.textContent = "table " + t.id + " · " + t.ruleset + " · " + t.entries + (t.entries === 1 ? " entry" : " entries");
        item.append(link, " ", about);
        const seated = lobbyPlayers(t.players);
        if (seated) {
          const span = document.createElement("span");
          span.className = "seated";
          span.textContent = seated;
          item.append(" ", span);
        }
        if (t.state) {
          const span = document.createElement("span");
          span.className = "state";
          span.textContent = t.state;
          item.append(" ", span);
        }
        const join = document.createElement("a");
        join.className = "button";
        join.href = "/tables/" + t.id;
        join.textContent = "join or watch";
        item.append(" ", join);
        return item;
      });
      if (!items.length) {
        const none = document.createElement("li");
        none.className = "muted";
        none.textContent = "No table is open yet: set one up.";
        items.push(none);
      }
      list.replaceChildren(...items);
    }
    poll();
  }
})();
