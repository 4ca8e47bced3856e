// The Parley inspector's only script, and nothing depends on it: the pages read and the report form posts without
// it. On a conversation, j and k move the focus to the next and previous turn (as in many mail readers).
"use strict";
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
  if (event.key !== "j" && event.key !== "k") return;
  const turns = Array.from(document.querySelectorAll("li.turn"));
  if (turns.length === 0) return;
  const current = turns.findIndex((turn) => turn.contains(document.activeElement));
  const next = event.key === "j" ? Math.min(current + 1, turns.length - 1) : Math.max(current - 1, 0);
  const turn = turns[current === -1 ? 0 : next];
  turn.setAttribute("tabindex", "-1");
  turn.focus();
  event.preventDefault();
});
