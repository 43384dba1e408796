// The table page's only script: the history slider and live updates (Server-Sent Events).
// Without it the page still works: permalinks, the log and its search are plain links and forms.
"use strict";
(function () {
  const main = document.getElementById("table");
  const slider = document.getElementById("slider");
  if (!main || !slider) return;
  const base = main.dataset.base;
  let versions = slider.dataset.versions.split(",").map(Number);
  let latest = Number(main.dataset.version);
  let asked = 0;

  function text(id, value) { const el = document.getElementById(id); if (el) el.textContent = value; }

  function events(list) {
    const ul = document.getElementById("events");
    ul.replaceChildren(...list.map(function (e) { const li = document.createElement("li"); li.textContent = e; return li; }));
  }

  async function show(version, push) {
    const mine = ++asked;
    const answer = await fetch(base + "/step/" + version + ".json");
    if (!answer.ok || mine !== asked) return;
    const step = await answer.json();
    const img = document.getElementById("board");
    img.src = base + "/board/" + step.version + ".png";
    document.getElementById("board-link").href = img.src;
    img.alt = step.alt;
    text("caption", step.heading);
    text("board-text", step.text);
    text("shown", String(step.version));
    text("status", step.status);
    events(step.events);
    const link = document.getElementById("permalink");
    link.href = base + "?v=" + step.version;
    if (push) history.replaceState(null, "", link.href);
    main.dataset.shown = String(step.version);
  }

  slider.addEventListener("input", function () { show(versions[Number(slider.value)], true); });
  document.getElementById("latest").addEventListener("click", function () {
    slider.value = String(versions.length - 1);
    show(versions[versions.length - 1], true);
  });

  // The table now: each seat's score and time left, and the new move at the top of the log.
  function now(step) {
    (step.seats || []).forEach(function (seat) {
      const row = document.querySelector("#seats tr[data-seat='" + seat.seat + "']");
      if (!row) return;
      const score = row.querySelector(".score"), time = row.querySelector(".time");
      if (score) score.textContent = seat.score;
      if (time) time.textContent = seat.time;
    });
    const log = document.getElementById("log"), search = document.getElementById("q");
    if (!log) return;
    log.querySelectorAll(":scope > li").forEach(function (li) {  // moves an undo took back
      if (!step.versions.includes(Number(li.dataset.version))) li.remove();
    });
    if ((search && search.value) || log.querySelector("li[data-version='" + step.version + "']")) return;
    const item = document.createElement("li"), link = document.createElement("a"), list = document.createElement("ul");
    item.dataset.version = String(step.version);
    link.href = base + "?v=" + step.version;
    link.textContent = step.heading;
    step.events.forEach(function (e) { const li = document.createElement("li"); li.textContent = e; list.appendChild(li); });
    item.append(link, list);
    log.prepend(item);
  }

  async function arrived(version) {
    if (version <= latest) return;
    const atEnd = Number(slider.value) === versions.length - 1;
    latest = version;
    main.dataset.version = String(version);
    const answer = await fetch(base + "/step/" + version + ".json");
    if (!answer.ok) return;
    const step = await answer.json();
    versions = step.versions;
    slider.max = String(versions.length - 1);
    slider.dataset.versions = versions.join(",");
    now(step);
    if (atEnd) { slider.value = String(versions.length - 1); await show(version, false); }
    else { text("status", step.status); }
  }

  if (main.dataset.live === "yes" && "EventSource" in window) {
    const stream = new EventSource(base + "/live");
    stream.addEventListener("version", function (e) { arrived(Number(e.data)); });
  }
})();
