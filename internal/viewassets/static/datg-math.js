// datg-math.js renders the math spans that datg's texmath marks
// (<span class="math math-inline|math-display">TeX</span>) with KaTeX, then
// fits each DAG label into its box. It is a file, not an inline script, so
// pages can forbid inline scripts (Content-Security-Policy script-src 'self').
(function () {
  "use strict";

  var options = {
    throwOnError: true,
    strict: false,
    trust: false,
    maxSize: 20,
    maxExpand: 1000,
    output: "htmlAndMathml"
  };
  // rendered holds the first rendering of each TeX (and mode): a trace
  // repeats its math (1,467 spans, 633 distinct, in a long one), and a
  // copy of KaTeX's output costs less than building it again.
  var rendered = new Map();

  // renderSpan renders one math span, unless it was. Bad TeX stays as its
  // text, marked math-error with KaTeX's message as a title: KaTeX's own
  // throwOnError: false would colour it through a style attribute, which
  // style-src 'self' blocks (and logs). strict: false so text in other
  // scripts inside math logs no console warnings; trust false so \href and
  // \includegraphics stay inert; maxSize (em) and maxExpand bound what a
  // model's \rule or macro loop can make.
  function renderSpan(el) {
    if (el.getAttribute("data-tex") !== null) {
      return;
    }
    var tex = el.textContent;
    var display = el.classList.contains("math-display");
    el.setAttribute("data-tex", tex);
    var key = (display ? "D" : "I") + tex;
    var done = rendered.get(key);
    if (done) {
      if (done.error !== undefined) {
        el.classList.add("math-error");
        el.setAttribute("title", done.error);
        return;
      }
      el.replaceChildren(done.node.cloneNode(true));
      return;
    }
    try {
      options.displayMode = display;
      katex.render(tex, el, options);
      if (el.childNodes.length === 1) {
        rendered.set(key, { node: el.firstChild.cloneNode(true) });
      }
    } catch (e) {
      var msg = String(e && e.message ? e.message : e);
      el.textContent = tex;
      el.classList.add("math-error");
      el.setAttribute("title", msg);
      rendered.set(key, { error: msg });
    }
  }

  function renderAll(root) {
    var spans = root.querySelectorAll("span.math:not([data-tex])");
    for (var i = 0; i < spans.length; i++) {
      renderSpan(spans[i]);
    }
  }

  // render renders the math under root: at once outside a trace's text
  // (the problem, the DAG labels), and the trace's blocks (text.go) first
  // where they come near the screen, the rest a slice at a time while the
  // page is idle, so a long trace's page can be read and clicked at once
  // and its math is all rendered soon after (window.datgMath.doneAt).
  function render(root) {
    root = root || document;
    if (typeof katex === "undefined") {
      return;
    }
    var blocks = Array.prototype.slice.call(root.querySelectorAll(".trace-text > .block"));
    var spans = root.querySelectorAll("span.math:not([data-tex])");
    for (var i = 0; i < spans.length; i++) {
      if (!spans[i].closest(".trace-text > .block")) {
        renderSpan(spans[i]);
      }
    }
    fitLabels(root);
    if (blocks.length === 0 || typeof IntersectionObserver === "undefined") {
      blocks.forEach(renderAll);
      finished();
      return;
    }
    var pending = new Set(blocks);
    function take(block) {
      if (pending.delete(block)) {
        observer.unobserve(block);
        renderAll(block);
        if (pending.size === 0) {
          observer.disconnect();
          finished();
        }
      }
    }
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) {
          take(e.target);
        }
      });
    }, { rootMargin: "100% 0px" });
    blocks.forEach(function (b) { observer.observe(b); });
    var next = 0;
    function idle(deadline) {
      // At least one block a call, however busy the page: the math is
      // all rendered in the end.
      var until = performance.now() + 12;
      do {
        take(blocks[next++]);
      } while (next < blocks.length && (deadline && deadline.timeRemaining ? deadline.timeRemaining() > 2 : performance.now() < until));
      if (next < blocks.length) {
        later(idle);
      }
    }
    later(idle);
  }

  function later(f) {
    if (typeof requestIdleCallback === "function") {
      requestIdleCallback(f, { timeout: 200 });
    } else {
      setTimeout(f, 0);
    }
  }

  function finished() {
    window.datgMath.doneAt = performance.now();
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

  window.datgMath = { render: render, doneAt: 0 };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { render(document); });
  } else {
    render(document);
  }
})();
