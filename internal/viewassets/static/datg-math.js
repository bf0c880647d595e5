// datg-math.js renders the math spans that datg's texmath marks
// (<span class="math math-inline|math-display">TeX</span>) with KaTeX, then
// fits each DAG label into its box. It is a file, not an inline script, so
// pages can forbid inline scripts (Content-Security-Policy script-src 'self').
(function () {
  "use strict";

  // render renders every math span under root not yet rendered. Bad TeX
  // stays as its text, marked math-error with KaTeX's message as a title:
  // KaTeX's own throwOnError: false would colour it through a style
  // attribute, which style-src 'self' blocks (and logs). strict: false so
  // text in other scripts inside math logs no console warnings.
  function render(root) {
    root = root || document;
    if (typeof katex === "undefined") {
      return;
    }
    var spans = root.querySelectorAll("span.math");
    for (var i = 0; i < spans.length; i++) {
      var el = spans[i];
      if (el.getAttribute("data-tex") !== null) {
        continue;
      }
      var tex = el.textContent;
      el.setAttribute("data-tex", tex);
      try {
        katex.render(tex, el, {
          displayMode: el.classList.contains("math-display"),
          throwOnError: true,
          strict: false,
          trust: false,
          output: "htmlAndMathml"
        });
      } catch (e) {
        el.textContent = tex;
        el.classList.add("math-error");
        el.setAttribute("title", String(e && e.message ? e.message : e));
      }
    }
    fitLabels(root);
  }

  // fitLabels shrinks the text of a DAG label whose rendered size exceeds
  // the box the server estimated, so a label is never cut: the layout
  // sizes boxes generously, this is the last resort.
  function fitLabels(root) {
    var labels = root.querySelectorAll(".dag-label");
    for (var i = 0; i < labels.length; i++) {
      var el = labels[i];
      var size = 100;
      while (size > 40 && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
        size -= 10;
        el.style.fontSize = size + "%";
      }
    }
  }

  window.datgMath = { render: render };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { render(document); });
  } else {
    render(document);
  }
})();
