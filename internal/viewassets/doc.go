// Package viewassets holds the files datg's HTML pages load: KaTeX 0.16.4
// (vendored from Debian's libjs-katex and fonts-katex; static/katex/README.md
// says how, static/katex/LICENSE is its licence), datg-math.js, which
// renders the math spans internal/texmath marks, and datg.css, the styles
// of math and of internal/dagdraw's DAG drawings.
//
// Nothing is fetched from the network and no page needs an inline script:
// the assets work under
//
//	Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self' data:
//
// (KaTeX sets element styles through the DOM, which style-src does not
// restrict; a page's own <style> block needs 'unsafe-inline' or a hash).
//
// A server mounts Handler under a prefix and puts Head(prefix) in each
// page's <head>:
//
//	mux.Handle("/assets/", viewassets.Handler("/assets/"))
//	... <head>{{.AssetsHead}}</head>  with AssetsHead = viewassets.Head("/assets/")
//
// A static export writes StaticFiles into the directory of its pages and
// puts StaticHead in them; a page that must stand alone as one file puts
// InlineHead in it.
package viewassets
