// datg view: links a trace's evidence and its DAG nodes both ways. A
// click on a node of the DAG whose evidence the page shows scrolls to the
// node's first evidence span (opening a folded repeat that holds it) and
// highlights every span of it; a node of another DAG opens the page of
// that DAG's evidence. A click on a span highlights its node and scrolls
// to it. Node ids are model text: spans list them as JSON, and elements
// are matched by comparing attributes, never through a CSS selector.
// Back and Forward reset the search form to its page's URL.
// Nothing here is inline: the Content-Security-Policy allows the viewer's
// own scripts only.
"use strict";
(function () {
  function clearSelection() {
    document.querySelectorAll(".selected").forEach(function (el) { el.classList.remove("selected"); });
  }
  function idsOf(span) {
    try { return JSON.parse(span.getAttribute("data-nodes")) || []; } catch (e) { return []; }
  }
  function nodesIn(root, id) {
    return Array.prototype.filter.call(root.querySelectorAll("[data-node]"), function (n) {
      return n.getAttribute("data-node") === id;
    });
  }
  function openFolds(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") { p.open = true; }
    }
  }
  function showEvidence(node) {
    var id = node.getAttribute("data-node");
    var fig = node.closest("figure");
    if (fig && (fig.classList.contains("dag-figure") || fig.classList.contains("aligner")) && !fig.classList.contains("shown")) {
      // Another DAG's node, or the other aligner's: its evidence is on
      // that DAG's (or aligner's) page.
      if (fig.getAttribute("data-href")) { window.location.href = fig.getAttribute("data-href"); }
      return;
    }
    var spans = Array.prototype.filter.call(document.querySelectorAll(".trace-text .ev[data-nodes]"), function (s) {
      return idsOf(s).indexOf(id) >= 0;
    });
    clearSelection();
    node.classList.add("selected");
    if (spans.length === 0) { return; }
    spans.forEach(function (s) { openFolds(s); s.classList.add("selected"); });
    spans[0].scrollIntoView({ block: "center" });
    spans[0].focus({ preventScroll: true });
  }
  function showNode(span) {
    var ids = idsOf(span);
    if (ids.length === 0) { return; }
    clearSelection();
    span.classList.add("selected");
    var shown = document.querySelector("figure.dag-figure.shown");
    var nodes = shown ? nodesIn(shown, ids[0]) : [];
    nodes.forEach(function (n) { n.classList.add("selected"); });
    if (nodes.length > 0) { nodes[0].scrollIntoView({ block: "center" }); }
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
  // Back and Forward show each page as its URL says: Chromium restores
  // what was typed into a form when history returns to a page, so the
  // index's search box showed the query of the page left above results it
  // did not filter. Every field goes back to the value the server wrote.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form.search input").forEach(function (el) {
      if (el.value !== el.defaultValue) { el.value = el.defaultValue; }
    });
  });
})();
