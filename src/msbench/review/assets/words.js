/* msbench review site: the word view of a recording page. Every reference and hypothesis word
   of one unit at its time, in its speaker's lane, coloured by its class under the cpWER or the
   tcpWER assignment (correct, substitution, insertion, deletion; a word wrong under the
   assignment but right in the speaker-agnostic alignment is outlined as a speaker error).
   The classes are the evaluation's (alignments/<system>/<unit>.json, written by
   `msbench evaluate` from the alignments its scores come from); nothing is aligned here.
   A second system is drawn under the first on the same time axis, with the same player.
   Words are drawn as the view needs them: all of them up to DRAW_ALL words, else those near
   the visible part of the unit. Loaded by recordings/<slug>.html before review.js, which calls
   window.msbenchWordView(data, view, playSpan, helpers, wanted). */
(function () {
  "use strict";
  var LABEL = 170, LANE = 36, AXIS = 18, DRAW_ALL = 4000, MARGIN = 1.0;
  var CLASSES = ["correct", "substitution", "insertion", "deletion"];

  window.msbenchWordView = function (d, view, playSpan, h, wanted) {
    var state = { compare: wanted.compare || "", kind: wanted.view === "tcp" ? "tcp" : "cp", unit: wanted.unit || "",
                  pps: 110, query: "", next: 0 };
    var root = document.getElementById("word-view");
    var wrap = document.getElementById("word-lanes-wrap");
    var lanes = document.getElementById("word-lanes");
    var drawn = { words: [], t0: 0, t1: 0, cursor: null, all: true };
    controls();

    function controls() {
      var bar = document.getElementById("word-controls");
      var compare = h.el("select", { id: "compare" }, [h.el("option", { value: "", text: "none" })]);
      d.systems.forEach(function (s) { compare.appendChild(h.el("option", { value: s.id, text: s.name })); });
      compare.value = state.compare;
      compare.addEventListener("change", function () { state.compare = compare.value; show(); });
      bar.appendChild(h.el("label", {}, [document.createTextNode("Beside it "), compare]));
      ["cp", "tcp"].forEach(function (kind) {
        var input = h.el("input", { type: "radio", name: "word-kind", value: kind, id: "word-kind-" + kind });
        input.checked = state.kind === kind;
        input.addEventListener("change", function () { state.kind = kind; show(); });
        bar.appendChild(h.el("label", { for: "word-kind-" + kind }, [input, document.createTextNode(" " + kind + "WER ")]));
      });
      var unit = h.el("select", { id: "word-unit" });
      unit.addEventListener("change", function () { state.unit = unit.value; show(); });
      bar.appendChild(h.el("label", {}, [document.createTextNode("Unit "), unit]));
      var search = h.el("input", { id: "word-search", type: "search", placeholder: "find a word (Enter: next)" });
      search.addEventListener("input", function () { state.query = search.value.trim().toLowerCase(); state.next = 0; mark(); });
      search.addEventListener("keydown", function (e) { if (e.key === "Enter") nextMatch(); });
      bar.appendChild(search);
      var out = h.el("button", { type: "button", id: "word-zoom-out", text: "\u2212" });
      var inn = h.el("button", { type: "button", id: "word-zoom-in", text: "+" });
      out.addEventListener("click", function () { state.pps = Math.max(5, state.pps / 2); show(); });
      inn.addEventListener("click", function () { state.pps = Math.min(1000, state.pps * 2); show(); });
      bar.appendChild(out);
      bar.appendChild(inn);
      bar.appendChild(h.el("span", { id: "word-matches" }));
      wrap.addEventListener("scroll", function () {
        lanes.querySelectorAll(".word-lane-label, .word-system").forEach(function (node) {
          node.style.transform = "translateX(" + wrap.scrollLeft + "px)";
        });
        if (!drawn.all) window.requestAnimationFrame(paint);
      });
    }

    function systems() {
      var out = view.system ? [view.system] : [];
      d.systems.forEach(function (s) { if (s.id === state.compare && out.indexOf(s) < 0) out.push(s); });
      return out;
    }

    function load(system, unitId, done) {
      var key = system.id + "/" + unitId;
      var path = (system.alignments || {})[unitId];
      var have = (window.MSBENCH_ALIGNMENTS || {})[key];
      if (have || !path) { done(have || null); return; }
      var script = document.createElement("script");
      script.src = "../" + path;
      script.charset = "utf-8";
      script.onload = function () { done((window.MSBENCH_ALIGNMENTS || {})[key] || null); };
      script.onerror = function () { done(null); };
      document.head.appendChild(script);
    }

    function show() {
      var shown = systems();
      var note = document.getElementById("word-note");
      root.hidden = false;
      if (!shown.length) {
        lanes.innerHTML = "";
        document.getElementById("word-counts").innerHTML = "";
        document.getElementById("word-minimaps").innerHTML = "";
        note.textContent = "Choose a system to read its words.";
        return;
      }
      var units = view.system.units.map(function (u) { return u.unit_id; });
      var select = document.getElementById("word-unit");
      select.innerHTML = "";
      units.forEach(function (u) { select.appendChild(h.el("option", { value: u, text: u })); });
      if (units.indexOf(state.unit) < 0) state.unit = units[0] || "";
      select.value = state.unit;
      var loaded = [];
      var pending = shown.length;
      shown.forEach(function (system, k) {
        load(system, state.unit, function (data) {
          loaded[k] = { system: system, data: data };
          pending -= 1;
          if (pending === 0) render(loaded);
        });
      });
    }

    function unitRow(system) {
      return system.units.filter(function (u) { return u.unit_id === state.unit; })[0] || null;
    }

    function render(entries) {
      var notes = [];
      var usable = entries.filter(function (e) {
        if (e.data && !e.data.problem) return true;
        var row = unitRow(e.system);
        notes.push(e.system.name + ": " + (e.data && e.data.problem ? e.data.problem :
          "no words for " + state.unit + (row && row.reason ? " (" + row.status + ": " + row.reason + ")" : "")));
        return false;
      });
      document.getElementById("word-note").textContent = notes.join(" · ");
      var t0 = Infinity, t1 = -Infinity;
      usable.forEach(function (e) { t0 = Math.min(t0, e.data.start); t1 = Math.max(t1, e.data.end); });
      lanes.innerHTML = "";
      document.getElementById("word-counts").innerHTML = "";
      document.getElementById("word-minimaps").innerHTML = "";
      drawn = { words: [], t0: t0, t1: t1, cursor: null, all: true };
      if (!usable.length) return;
      var top = AXIS;
      usable.forEach(function (e) {
        counts(e);
        top = layout(e, top) + 10;
      });
      lanes.style.width = Math.ceil(LABEL + (t1 - t0) * state.pps + 20) + "px";
      lanes.style.height = top + "px";
      axis(top);
      drawn.cursor = h.el("div", { class: "word-cursor" });
      drawn.cursor.style.height = top + "px";
      lanes.appendChild(drawn.cursor);
      drawn.all = drawn.words.length <= DRAW_ALL;
      usable.forEach(minimap);
      paint();
      mark();
      view.onTime = cursor;
      window.history.replaceState(null, "", "#system=" + encodeURIComponent(view.system.id) +
        (state.compare ? "&compare=" + encodeURIComponent(state.compare) : "") + "&view=" + state.kind +
        "&unit=" + encodeURIComponent(state.unit));
    }

    function counts(e) {
      var c = e.data.counts[state.kind];
      var speaker = e.data.reference.concat(e.data.hypothesis).filter(function (w) { return w[state.kind + "_speaker_error"]; }).length;
      var mapping = e.data.mapping[state.kind];
      var line = h.el("p", { class: "word-count", "data-system": e.system.id,
        text: e.system.name + " · " + state.kind + "WER: " + c.substitutions + " substitutions, " + c.insertions +
          " insertions, " + c.deletions + " deletions of " + c.length + " reference words; " + speaker +
          " words right but given to the wrong speaker · mapping " + Object.keys(mapping).map(function (k) {
            return k + " \u2192 " + short(mapping[k]);
          }).join(", ") });
      document.getElementById("word-counts").appendChild(line);
    }

    function short(speaker) {
      var parts = String(speaker).split("::");
      return parts.length >= 3 ? parts.slice(2).join("::") : String(speaker);
    }

    /* lanes: each reference speaker, then the hypothesis speaker mapped to it, then the rest */
    function layout(e, top) {
      var mapping = e.data.mapping[state.kind];
      var refSpeakers = [];
      e.data.reference.forEach(function (w) { if (refSpeakers.indexOf(w.speaker) < 0) refSpeakers.push(w.speaker); });
      Object.keys(mapping).forEach(function (hyp) { if (refSpeakers.indexOf(mapping[hyp]) < 0) refSpeakers.push(mapping[hyp]); });
      var order = [];
      refSpeakers.forEach(function (r) {
        order.push({ side: "ref", speaker: r, label: "ref " + short(r) });
        Object.keys(mapping).forEach(function (hyp) {
          if (mapping[hyp] === r) order.push({ side: "hyp", speaker: hyp, label: "hyp " + hyp + " \u2192 " + short(r) });
        });
      });
      var hypSpeakers = [];
      e.data.hypothesis.forEach(function (w) { if (hypSpeakers.indexOf(w.speaker) < 0) hypSpeakers.push(w.speaker); });
      hypSpeakers.forEach(function (s) { if (!(s in mapping)) order.push({ side: "hyp", speaker: s, label: "hyp " + s + " (unmatched)" }); });
      lanes.appendChild(h.el("div", { class: "word-system", text: e.system.name, style: "top:" + (top - 2) + "px" }));
      top += 16;
      order.forEach(function (lane, k) {
        var y = top + k * LANE;
        lane.y = y;
        lanes.appendChild(h.el("div", { class: "word-lane-label " + lane.side, text: lane.label, title: lane.speaker,
          style: "top:" + y + "px;height:" + (LANE - 2) + "px" }));
      });
      ["ref", "hyp"].forEach(function (side) {
        var words = side === "ref" ? e.data.reference : e.data.hypothesis;
        var row = {};
        words.forEach(function (w, i) {
          var lane = order.filter(function (l) { return l.side === side && l.speaker === w.speaker; })[0];
          var alt = row[w.speaker] = row[w.speaker] ? 0 : 1;
          drawn.words.push({ system: e.system.id, side: side, index: i, word: w, cls: w[state.kind],
            speakerError: w[state.kind + "_speaker_error"], x: LABEL + (w.start - drawn.t0) * state.pps,
            width: Math.max(2, (w.end - w.start) * state.pps), y: lane.y + (alt ? 1 : 17), node: null });
        });
      });
      drawn.words.sort(function (a, b) { return a.x - b.x; });
      return top + order.length * LANE;
    }

    function axis(height) {
      var steps = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];
      var step = steps.filter(function (s) { return s * state.pps >= 60; })[0] || 1800;
      for (var t = Math.ceil(drawn.t0 / step) * step; t <= drawn.t1 + 1e-9; t += step) {
        var x = LABEL + (t - drawn.t0) * state.pps;
        lanes.appendChild(h.el("div", { class: "word-tick", style: "left:" + x + "px;height:" + height + "px" }));
        lanes.appendChild(h.el("span", { class: "word-tick-label", text: h.clock(t, step < 1 ? 1 : 0), style: "left:" + (x + 2) + "px" }));
      }
    }

    function paint() {
      var low = -Infinity, high = Infinity;
      if (!drawn.all) {
        var screen = wrap.clientWidth;
        low = wrap.scrollLeft - MARGIN * screen;
        high = wrap.scrollLeft + (1 + MARGIN) * screen;
      }
      drawn.words.forEach(function (w) {
        var inside = w.x + w.width >= low && w.x <= high;
        if (inside && !w.node) w.node = wordNode(w);
        else if (!inside && w.node) { w.node.remove(); w.node = null; }
      });
      mark();
    }

    function wordNode(w) {
      var node = h.el("span", { class: "w w-" + w.cls + (w.speakerError ? " w-speaker" : ""), text: w.word.word,
        "data-system": w.system, "data-side": w.side, "data-class": w.cls, "data-start": String(w.word.start),
        "data-speaker-error": w.speakerError ? "1" : "0",
        title: w.side + " " + short(w.word.speaker) + ": \u201c" + w.word.word + "\u201d, " + w.cls +
          (w.speakerError ? " (right word, wrong speaker)" : "") + ", " + h.clock(w.word.start) + "\u2013" + h.clock(w.word.end) });
      node.style.left = w.x + "px";
      node.style.top = w.y + "px";
      node.style.maxWidth = Math.max(w.width, 18) + "px";
      node.addEventListener("click", function () { playSpan(w.word.start - d.offset, w.word.end - d.offset + 0.3); });
      lanes.appendChild(node);
      return node;
    }

    function minimap(e) {
      var width = Math.max(300, wrap.clientWidth - 130);
      var box = h.svg("svg", { class: "minimap", width: width, height: 14, "data-system": e.system.id });
      box.appendChild(h.svg("rect", { x: 0, y: 0, width: width, height: 14, class: "minimap-bg" }));
      var span = Math.max(drawn.t1 - drawn.t0, 1e-3);
      e.data.reference.concat(e.data.hypothesis).forEach(function (w) {
        var cls = w[state.kind];
        if (cls === "correct") return;
        var x = (w.start - drawn.t0) / span * width;
        box.appendChild(h.svg("rect", { class: "mm-" + cls, x: x, y: 1, width: 1.5, height: 12 }));
      });
      box.addEventListener("click", function (event) {
        var t = drawn.t0 + event.offsetX / width * span;
        wrap.scrollLeft = Math.max(0, (t - drawn.t0) * state.pps - wrap.clientWidth / 2 + LABEL);
      });
      document.getElementById("word-minimaps").appendChild(h.el("div", { class: "minimap-row" },
        [h.el("span", { class: "minimap-name", text: e.system.name + " errors" }), box]));
    }

    function matches() {
      if (!state.query) return [];
      return drawn.words.filter(function (w) { return w.word.word.toLowerCase().indexOf(state.query) === 0; });
    }

    function mark() {
      var found = matches();
      drawn.words.forEach(function (w) { if (w.node) w.node.classList.remove("w-match"); });
      found.forEach(function (w) { if (w.node) w.node.classList.add("w-match"); });
      document.getElementById("word-matches").textContent = state.query ? " " + found.length + " matches" : "";
    }

    function nextMatch() {
      var found = matches();
      if (!found.length) return;
      var w = found[state.next % found.length];
      state.next += 1;
      wrap.scrollLeft = Math.max(0, w.x - wrap.clientWidth / 2);
      paint();
    }

    function cursor(t) {
      if (!drawn.cursor || !isFinite(drawn.t0)) return;
      var x = LABEL + (t - drawn.t0) * state.pps;
      drawn.cursor.style.left = x + "px";
      if (x < wrap.scrollLeft + LABEL || x > wrap.scrollLeft + wrap.clientWidth - 40) {
        wrap.scrollLeft = Math.max(0, x - LABEL - 40);
        if (!drawn.all) paint();
      }
    }

    return { show: show, classes: CLASSES };
  };
})();
