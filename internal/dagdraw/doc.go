// Package dagdraw draws a reasoning DAG as a layered graph (Sugiyama's
// method) in SVG: node boxes sized to their whole label, which is wrapped
// and never cut, and edges that are routed around every node box and end
// in arrowheads.
//
// Steps (Lay):
//
//  1. Layers by longest path from the roots, then each node that can move
//     down towards its children does, so edges are short.
//  2. An edge spanning several layers gets a dummy node in each layer it
//     crosses, so it passes between the boxes of that layer.
//  3. The order within each layer is improved by barycenter sweeps, down
//     and up, keeping the order with the fewest crossings.
//  4. x: each layer is placed at its neighbours' mean x, within the order
//     and the minimum gaps, by isotonic regression (pool adjacent
//     violators), in sweeps down and up. y: every box of a layer starts at
//     the layer's top; the layer is as tall as its tallest box.
//  5. An edge leaves its parent's bottom and enters its child's top at a
//     port of its own (spread along the side in the order of the edges'
//     other ends); it is vertical inside a layer (under its parent's box,
//     or through its dummy's slot, which no box overlaps) and a cubic
//     Bézier across the gap between two layers, whose control points lie
//     in that gap, so the curve stays in it. No edge can cross a box.
//
// Why our own layout and not Graphviz (github.com/goccy/go-graphviz, dot
// compiled to WebAssembly): dot takes 11 ms per 40-node DAG there (a trace
// page draws five), its splines are not guaranteed to miss boxes, it
// brings a 5 MB WebAssembly module, and it cannot size boxes for labels
// whose math the browser renders; this layout and its SVG take about
// 1.5 ms of CPU for such a DAG (BenchmarkLay).
//
// Box sizes are estimated on the server from the label (Measure): text by
// script (CJK wide, Indic and Latin narrower), math by a small reading of
// its TeX (fractions, roots, scripts), generously; the page's datg-math.js
// (internal/viewassets) shrinks a label's font if a rendered label still
// overflows its box, so nothing is cut.
//
// SVG writes the drawing: <svg class="dag">, edges as <path
// class="dag-edge CLASS" marker-end=...>, and each node as <g
// class="dag-node status-STATUS [final]" data-node="ID"> holding a <rect>
// and a <foreignObject> whose XHTML div holds the label as texmath's HTML
// (escaped; math spans for KaTeX). Styles are in viewassets' datg.css; a
// page puts the drawing in a <div class="dag-scroll">, so a wide DAG
// scrolls sideways at its full size instead of shrinking its text.
package dagdraw
