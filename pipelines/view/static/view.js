// datg view: links a trace's evidence and its DAG nodes both ways. A
// click on a node scrolls to its first evidence span (opening a folded
// repeat that holds it) and highlights every span of it; a click on a
// span highlights its node and scrolls to it. Nothing here is inline: the
// Content-Security-Policy allows the viewer's own scripts only.
"use strict";
(function () {
  function clearSelection() {
    document.querySelectorAll(".selected").forEach(function (el) { el.classList.remove("selected"); });
  }
  function spansOf(key) {
    return Array.prototype.filter.call(document.querySelectorAll(".ev[data-nodes]"), function (el) {
      return el.getAttribute("data-nodes").split(" ").indexOf(key) >= 0;
    });
  }
  function openFolds(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") { p.open = true; }
    }
  }
  function showEvidence(node) {
    var key = node.getAttribute("data-node");
    var spans = spansOf(key);
    clearSelection();
    document.querySelectorAll('[data-node="' + CSS.escape(key) + '"]').forEach(function (n) { n.classList.add("selected"); });
    if (spans.length === 0) {
      // Another DAG's node: its evidence is on that DAG's page.
      var fig = node.closest("figure.dag-figure");
      if (fig && !fig.classList.contains("shown") && fig.getAttribute("data-href")) {
        window.location.href = fig.getAttribute("data-href");
      }
      return;
    }
    spans.forEach(function (s) { openFolds(s); s.classList.add("selected"); });
    spans[0].scrollIntoView({ block: "center" });
    spans[0].focus({ preventScroll: true });
  }
  function showNode(span) {
    var key = span.getAttribute("data-nodes").split(" ")[0];
    clearSelection();
    span.classList.add("selected");
    var shown = document.querySelector("figure.dag-figure.shown");
    var node = (shown && shown.querySelector('[data-node="' + CSS.escape(key) + '"]')) ||
      document.querySelector('[data-node="' + CSS.escape(key) + '"]');
    if (node) {
      document.querySelectorAll('[data-node="' + CSS.escape(key) + '"]').forEach(function (n) { n.classList.add("selected"); });
      node.scrollIntoView({ block: "center" });
    }
  }
  function activate(target) {
    var node = target.closest("[data-node]");
    if (node) { showEvidence(node); return true; }
    var span = target.closest(".ev[data-nodes]");
    if (span) { showNode(span); return true; }
    return false;
  }
  document.addEventListener("click", function (e) {
    if (e.target.closest("a, summary")) { return; }
    if (activate(e.target)) { e.preventDefault(); }
  });
  document.addEventListener("keydown", function (e) {
    if ((e.key === "Enter" || e.key === " ") && activate(e.target)) { e.preventDefault(); }
  });
})();
