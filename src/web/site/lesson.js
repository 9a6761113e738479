// lesson.js: a lesson page's running program, its code panel and its tour.
//
// The page's config (<script id="raypick-config">: the lesson's number, the
// language, the font files, a few texts) starts raypick.js in the canvas
// with --lesson N --lang L. The program tells the page what its code panel
// would show whenever that changes (src/web/main_web.c calls
// Module.raypickStep with one JSON object: the listing, the step as the
// native --report prints it, the tour's sentences and moment), and this
// draws it as HTML: the listing with the step's line lit, the step's
// sentence and its watches. The buttons drive the program through its
// exported functions (_raypick_web_key, _raypick_web_tour, _raypick_web_panel).
//
// window.raypickPage is for tests and the curious: every message received,
// what the program printed, and the module.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("raypick-config").textContent);
  const canvas = document.getElementById("canvas");
  const status = document.getElementById("status");
  const listingBox = document.getElementById("listing-box");
  const listingList = document.getElementById("listing");
  const codePath = document.getElementById("code-path");
  const stepLine = document.getElementById("step-line");
  const watches = document.getElementById("watches");
  const tourList = document.getElementById("tour-list");
  const panelBox = document.getElementById("panel-in-canvas");
  const page = {messages: [], printed: [], errors: [], module: null, ready: false, last: null, args: null, clicks: []};
  window.raypickPage = page;
  let listingName;                 // undefined until the first message: null is "no listing"
  let toursShown = null;

  // "step %d of %d, line %d" with the numbers in order (the catalogue's printf format)
  function format(text, values) {
    let i = 0;
    return text.replace(/%%|%[-+ #0]*\d*(?:\.\d+)?[sdif]/g, (m) => (m === "%%" ? "%" : String(values[i++])));
  }

  function showStatus(text, failed) {
    status.textContent = text;
    status.classList.toggle("failed", !!failed);
    status.hidden = !text;
  }

  function showListing(listing) {
    const name = listing ? listing.name : null;
    if (name === listingName) return;
    listingName = name;
    listingList.textContent = "";
    codePath.classList.toggle("none", !listing);     // a sentence, not a file name
    if (!listing) {
      codePath.textContent = config.texts["site.code.none"];
      listingBox.hidden = true;
      return;
    }
    listingBox.hidden = false;
    codePath.textContent = listing.path;
    listing.lines.forEach((text, i) => {
      const li = document.createElement("li");
      li.id = "code-line-" + (i + 1);
      li.value = i + 1;
      const code = document.createElement("code");
      code.textContent = text || " ";
      li.appendChild(code);
      listingList.appendChild(li);
    });
  }

  // the lit line in view inside the listing's box, without moving the page
  function scrollToLine(li) {
    const top = li.offsetTop - listingList.offsetTop;
    if (top < listingBox.scrollTop || top + li.offsetHeight > listingBox.scrollTop + listingBox.clientHeight)
      listingBox.scrollTop = Math.max(0, top - listingBox.clientHeight / 3);
  }

  function showStep(message) {
    for (const li of listingList.querySelectorAll(".lit")) {
      li.classList.remove("lit");
      li.removeAttribute("aria-current");
    }
    watches.textContent = "";
    const step = message.report && message.report.step;
    if (!step) {
      stepLine.textContent = message.listing ? config.texts["teach.panel.no-step"] : "";
      return;
    }
    const li = document.getElementById("code-line-" + step.line);
    if (li) {
      li.classList.add("lit");
      li.setAttribute("aria-current", "step");
      scrollToLine(li);
    }
    stepLine.textContent = format(config.texts["teach.panel.step"], [step.index + 1, step.count, step.line]) +
      ": " + step.sentence;
    for (const name of Object.keys(step.watches)) {
      const dt = document.createElement("dt");
      const dd = document.createElement("dd");
      dt.textContent = name;
      dd.textContent = step.watches[name];
      watches.append(dt, dd);
    }
  }

  function showTour(message) {
    const key = JSON.stringify(message.tours);
    if (key !== toursShown) {
      toursShown = key;
      tourList.textContent = "";
      if (!message.tours.length) {
        const li = document.createElement("li");
        li.className = "none";
        li.textContent = config.texts["site.tour.none"];
        tourList.appendChild(li);
      }
      message.tours.forEach((sentence, m) => {
        const li = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "tour-moment";
        button.dataset.moment = String(m);
        button.textContent = sentence;
        button.addEventListener("click", () => {
          if (page.module) page.module._raypick_web_tour(m);
        });
        li.appendChild(button);
        tourList.appendChild(li);
      });
    }
    for (const button of tourList.querySelectorAll("button")) {
      if (Number(button.dataset.moment) === message.tour) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
  }

  function onStep(json) {
    const message = JSON.parse(json);
    page.messages.push(message);
    page.last = message;
    showListing(message.listing);
    showStep(message);
    showTour(message);
  }

  function keyButtons() {
    for (const button of document.querySelectorAll("button[data-key]")) {
      button.addEventListener("click", () => {
        if (page.module) page.module._raypick_web_key(button.dataset.key.charCodeAt(0));
      });
    }
    panelBox.addEventListener("change", () => {
      if (page.module) page.module._raypick_web_panel(panelBox.checked ? 1 : 0);
      checkPanelDrawn();
    });
  }

  // The panel asked for in the canvas but not drawn (a lesson with a listing,
  // a canvas narrower than the panel needs): the note under the checkbox says
  // so. Asked a few frames after the change, when the program has drawn one.
  function checkPanelDrawn() {
    const note = document.getElementById("panel-note");
    let frames = 4;
    const ask = () => {
      if (--frames > 0) { requestAnimationFrame(ask); return; }
      page.panelDrawn = page.module ? page.module._raypick_web_panel_drawn() === 1 : false;
      note.hidden = !(panelBox.checked && listingName && !page.panelDrawn);
    };
    requestAnimationFrame(ask);
  }

  async function fetchFonts() {
    const files = {};
    for (const url of config.fonts) {
      const r = await fetch(url);
      if (!r.ok) throw new Error(url + ": " + r.status);
      files[url.replace(/^.*\//, "")] = new Uint8Array(await r.arrayBuffer());
    }
    return files;
  }

  // Tab and Shift+Tab leave the canvas as they leave any control (the
  // program would take them as its own keys, and keyboard users would be
  // kept in it); Escape would end the program (the native Esc quit).
  // A listener on the document's capture phase runs before the program's
  // on the canvas, and stopping the event there keeps it from the program.
  document.addEventListener("keydown", (e) => {
    if (e.target === canvas && (e.key === "Tab" || e.key === "Escape")) e.stopPropagation();
  }, true);

  async function start() {
    keyButtons();
    if (typeof createRaypick !== "function") {
      showStatus(config.texts["site.lesson.failed"], true);
      return;
    }
    const box = canvas.getBoundingClientRect();
    // whole CSS pixels, as SDL takes the canvas's size (it drops the fraction)
    const width = Math.max(64, Math.floor(box.width));
    const height = Math.max(64, Math.floor(box.height));
    let fonts;
    try {
      fonts = await fetchFonts();
    } catch (e) {
      page.errors.push(String(e));
      fonts = {};
    }
    canvas.addEventListener("mousedown", (e) => {
      canvas.focus();
      const r = canvas.getBoundingClientRect();     // where in the canvas, as the program gets it
      page.clicks.push([e.clientX - r.left, e.clientY - r.top]);
    });
    page.args = ["--lesson", String(config.lesson), "--lang", config.lang, "--size", width + "x" + height];
    // ?report: the program's --report lines (picks, steps, tour) in raypickPage.printed and on the console
    if (new URLSearchParams(location.search).has("report")) page.args.push("--report");
    try {
      page.module = await createRaypick({
        arguments: page.args,
        canvas: canvas,
        print: (line) => { page.printed.push(line); console.log(line); },
        // the program's stderr (a font it lacks, a bad file): shown, and kept for the tests
        printErr: (line) => { page.errors.push(line); console.warn(line); showStatus(line, true); },
        preRun: [(mod) => {
          mod.FS.mkdir("/fonts");
          const paths = [];
          for (const name in fonts) {
            mod.FS.writeFile("/fonts/" + name, fonts[name]);
            paths.push("/fonts/" + name);
          }
          if (paths.length) mod.ENV.RAYPICK_FONT = paths.join(":");
        }],
        raypickStep: onStep,
        onAbort: (what) => { page.errors.push("stopped: " + what); showStatus(config.texts["site.lesson.failed"], true); },
      });
    } catch (e) {
      page.errors.push(String(e));
      showStatus(config.texts["site.lesson.failed"], true);
      return;
    }
    page.module._raypick_web_panel(panelBox.checked ? 1 : 0);
    if (panelBox.checked) checkPanelDrawn();
    page.ready = true;
    showStatus("");
  }

  start();
})();
