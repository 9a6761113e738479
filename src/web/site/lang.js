// lang.js: the site's ?lang=en|de|zh. Each language's pages are a folder of
// their own (en/, de/, zh/: plain files, any static host), so ?lang= moves
// to the same page in the folder asked for, keeping the rest of the query
// and the #anchor. The site's root page goes to the language asked for,
// else to the browser's own when the site has it, else to English.
(function () {
  "use strict";
  var LANGS = ["en", "de", "zh"];
  var script = document.currentScript;
  if (!script) return;
  var root = script.src.replace(/[^\/]*$/, "");            // the site's folder
  var here = location.href.split(/[?#]/)[0];
  if (here.indexOf(root) !== 0) return;
  var path = here.slice(root.length) || "index.html";       // "de/lesson4-terrain-picking.html"
  var slash = path.indexOf("/");
  var current = slash > 0 ? path.slice(0, slash) : null;
  if (current !== null && LANGS.indexOf(current) < 0) return;
  var page = current === null ? "index.html" : path.slice(slash + 1) || "index.html";
  var params = new URLSearchParams(location.search);
  var want = params.get("lang");
  if (want === null && current === null) {
    var browser = (navigator.languages || [navigator.language || "en"]).map(function (l) {
      return String(l).slice(0, 2).toLowerCase();
    });
    want = browser.filter(function (l) { return LANGS.indexOf(l) >= 0; })[0] || "en";
  }
  if (want === null || want === current || LANGS.indexOf(want) < 0) return;
  params.delete("lang");
  var query = params.toString();
  location.replace(root + want + "/" + page + (query ? "?" + query : "") + location.hash);
})();
