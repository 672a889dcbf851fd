/* msbench review site. Plain JavaScript, no library, no network: opened from the file system
   or any web server. Data: window.MSBENCH_INDEX (index.html), window.MSBENCH_RECORDING
   (recordings/<slug>.html), written by `msbench review`. Review progress is kept in the
   browser (localStorage "msbench-review:<site_key>") and can be saved to / loaded from a file. */
(function () {
  "use strict";
  var STORE = "msbench-review:";
  /* speaker colours: none of them is a mark colour (orange, red, purple, yellow) */
  var PALETTE = ["#4e79a7", "#59a14f", "#76b7b2", "#9c755f", "#a0cbe8", "#8cd17d", "#ff9da7",
                 "#2f4b7c", "#86bcb6", "#bab0ac"];
  var SVG = "http://www.w3.org/2000/svg";

  function loadState(key) {
    try { return JSON.parse(window.localStorage.getItem(STORE + key) || "{}"); } catch (e) { return {}; }
  }
  function saveState(key, state) { window.localStorage.setItem(STORE + key, JSON.stringify(state)); }

  /* unreviewed | in progress | passed | failed, from the four checks of one recording */
  function qcStatus(entry, checks) {
    if (!entry || !entry.checks) return "unreviewed";
    var values = checks.map(function (c) { return entry.checks[c[0]] || ""; });
    if (values.indexOf("fail") >= 0) return "failed";
    if (values.every(function (v) { return v === "pass"; })) return "passed";
    return values.some(function (v) { return v; }) ? "in progress" : "unreviewed";
  }
  /* the reason written to qc_rejected.tsv: "<check>: <reason>; ..." on one line, no tab */
  function failReason(entry, checks) {
    return checks.filter(function (c) { return entry.checks[c[0]] === "fail"; })
      .map(function (c) {
        var why = ((entry.reasons || {})[c[0]] || "").trim() || "failed";
        return c[1].toLowerCase() + ": " + why;
      }).join("; ").replace(/[\t\r\n]+/g, " ");
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]);
    });
    return node;
  }
  function fmt(value) {
    if (value === null || value === undefined || value === "") return "";
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(3);
    return String(value);
  }
  function clock(seconds, digits) {
    var places = digits === undefined ? 2 : digits;
    var m = Math.floor(seconds / 60), s = seconds - 60 * m;
    return m + ":" + (s < 10 ? "0" : "") + s.toFixed(places);
  }
  function download(name, text, type) {
    var link = el("a", { href: URL.createObjectURL(new Blob([text], { type: type })), download: name });
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  /* ---------------------------------------------------------------- index page */
  var COLUMNS = [["recording_id", "Recording"], ["source_dataset", "Source"], ["profile", "Profile"],
    ["duration_seconds", "Duration (s)"], ["num_speakers", "P speakers"], ["overlap_ratio", "O overlap"],
    ["speaker_similarity_max", "S similarity"], ["speaker_switch_q25", "T turn q25 (s)"],
    ["noise_difficulty", "N d_N"], ["qc", "QC"], ["replaces", "Replaces"]];

  /* "#system=baseline&P=P2" -> {system: "baseline", P: "P2"} */
  function hashParams() {
    var out = {};
    window.location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var k = part.indexOf("=");
      if (k > 0) out[decodeURIComponent(part.slice(0, k))] = decodeURIComponent(part.slice(k + 1));
    });
    return out;
  }
  /* the compared metrics come with the site's data (msbench.metrics: one registry) */
  function scoreColumns(metrics) {
    return (metrics || []).map(function (m) { return [m.name, m.label + " %"]; }).concat([["status", "Status"]]);
  }

  function indexPage(data) {
    var SCORE_COLUMNS = scoreColumns(data.metrics);
    var state = loadState(data.site_key);
    var sort = { key: null, direction: 1 };
    var filters = { source: "", search: "", pool: false, system: "" };
    var wanted = hashParams();
    buildControls(data, filters, render);
    Object.keys(wanted).forEach(function (k) {
      var select = document.getElementById("filter-" + k);
      if (select && (k in filters || k in data.axes)) { select.value = wanted[k]; filters[k] = select.value; }
    });
    var head = document.querySelector("#recordings thead");
    function columns() { return filters.system ? COLUMNS.concat(SCORE_COLUMNS) : COLUMNS; }
    function header() {
      head.innerHTML = "";
      var row = el("tr");
      columns().forEach(function (c) {
        var th = el("th", { "data-key": c[0], text: c[1] });
        th.addEventListener("click", function () {
          sort.direction = sort.key === c[0] ? -sort.direction : 1;
          sort.key = c[0];
          render();
        });
        row.appendChild(th);
      });
      head.appendChild(row);
    }

    function visible() {
      return data.recordings.filter(function (r) {
        if (!r.selected && !filters.pool) return false;
        if (filters.source && r.source_dataset !== filters.source) return false;
        if (filters.search && r.recording_id.toLowerCase().indexOf(filters.search) < 0) return false;
        return Object.keys(data.axes).every(function (a) { return !filters[a] || r[a] === filters[a]; });
      });
    }
    function scoreOf(r, key) {
      var entry = ((data.scores || {})[filters.system] || {})[r.recording_id];
      return entry ? entry[key] : null;
    }
    function value(r, key) {
      if (key === "qc") return r.selected ? qcStatus(state[r.recording_id], data.checks) : "pool";
      if (SCORE_COLUMNS.some(function (c) { return c[0] === key; })) return scoreOf(r, key);
      return r[key];
    }
    function render() {
      header();
      var rows = visible();
      if (sort.key) {
        rows.sort(function (a, b) {
          var x = value(a, sort.key), y = value(b, sort.key);
          if (x === y) return 0;
          if (x === null || x === undefined) return 1;
          if (y === null || y === undefined) return -1;
          return (x < y ? -1 : 1) * sort.direction;
        });
      }
      head.querySelectorAll("th").forEach(function (th) {
        th.className = th.getAttribute("data-key") === sort.key ? (sort.direction > 0 ? "sorted-asc" : "sorted-desc") : "";
      });
      var body = document.querySelector("#recordings tbody");
      body.innerHTML = "";
      rows.forEach(function (r) { body.appendChild(indexRow(r, value(r, "qc"), state, filters.system, scoreOf, SCORE_COLUMNS)); });
      renderProgress(data, state);
    }
    bindExports(data, state, function (loaded) { state = loaded; render(); });
    data.figures.forEach(function (src) {
      document.getElementById("figures").appendChild(el("img", { src: src, alt: src }));
    });
    render();
  }

  function buildControls(data, filters, render) {
    var controls = document.getElementById("controls");
    var sources = Array.from(new Set(data.recordings.map(function (r) { return r.source_dataset; }))).sort();
    function chooser(name, label, options) {
      var select = el("select", { id: "filter-" + name }, [el("option", { value: "", text: "all" })]);
      options.forEach(function (o) { select.appendChild(el("option", { value: o, text: o })); });
      select.addEventListener("change", function () { filters[name] = select.value; render(); });
      controls.appendChild(el("label", {}, [document.createTextNode(label + " "), select]));
    }
    chooser("source", "Source", sources);
    Object.keys(data.axes).forEach(function (axis) { chooser(axis, axis, data.axes[axis]); });
    var search = el("input", { id: "filter-search", type: "search", placeholder: "recording id" });
    search.addEventListener("input", function () { filters.search = search.value.toLowerCase(); render(); });
    controls.appendChild(search);
    if (data.systems.length) {
      var scores = el("select", { id: "filter-system" }, [el("option", { value: "", text: "none" })]);
      data.systems.forEach(function (s) { scores.appendChild(el("option", { value: s.id, text: s.name })); });
      scores.addEventListener("change", function () { filters.system = scores.value; render(); });
      controls.appendChild(el("label", {}, [document.createTextNode("Scores of "), scores]));
    }
    var pool = el("input", { id: "show-pool", type: "checkbox" });
    pool.addEventListener("change", function () { filters.pool = pool.checked; render(); });
    controls.appendChild(el("label", {}, [pool, document.createTextNode(" show the candidate pool")]));
  }

  function percent(value) {
    return value === null || value === undefined || value === "" ? "" : (100 * value).toFixed(2);
  }
  function indexRow(r, status, state, system, scoreOf, metricColumns) {
    var tr = el("tr", { "data-recording": r.recording_id, class: r.selected ? "selected" : "pool" });
    (system ? COLUMNS.concat(metricColumns) : COLUMNS).forEach(function (c) {
      var td;
      if (c[0] === "recording_id" && r.selected) {
        var target = "recordings/" + r.slug + ".html" + (system ? "#system=" + encodeURIComponent(system) : "");
        td = el("td", {}, [el("a", { href: target, text: r.recording_id })]);
      } else if (c[0] === "status") {
        td = el("td", { "data-score": "status", text: scoreOf(r, "status") || (r.selected ? "no unit" : "") });
      } else if (metricColumns.some(function (s) { return s[0] === c[0]; })) {
        var v = scoreOf(r, c[0]);
        td = el("td", { class: "num", "data-score": c[0], "data-value": v === null || v === undefined ? "" : String(v),
          text: percent(v) });
      } else if (c[0] === "qc") {
        var entry = state[r.recording_id];
        var text = status === "failed" ? "failed: " + failReason(entry, window.MSBENCH_INDEX.checks) : status;
        td = el("td", { class: "qc-" + status.replace(" ", "-"), text: text });
      } else {
        td = el("td", { text: fmt(r[c[0]]), class: typeof r[c[0]] === "number" ? "num" : "" });
      }
      tr.appendChild(td);
    });
    return tr;
  }

  function renderProgress(data, state) {
    var selected = data.recordings.filter(function (r) { return r.selected; });
    var counts = { passed: 0, failed: 0, "in progress": 0, unreviewed: 0 };
    selected.forEach(function (r) { counts[qcStatus(state[r.recording_id], data.checks)] += 1; });
    document.getElementById("progress").textContent = (selected.length - counts.unreviewed) + " of " +
      selected.length + " selected recordings reviewed: " + counts.passed + " passed, " + counts.failed +
      " failed, " + counts["in progress"] + " in progress. The accepted benchmark.csv holds every selected" +
      " recording not marked failed.";
    document.getElementById("summary").textContent = selected.length + " selected recordings" +
      (data.recordings.length > selected.length ? ", " + (data.recordings.length - selected.length) +
      " more candidates in the pool" : "") + (data.systems.length ? "; systems: " +
      data.systems.map(function (s) { return s.name; }).join(", ") : "");
  }

  /* the two files msbench reads: selection.keep (benchmark.csv rows) and selection.qc_rejected */
  function exports(data, state) {
    var ids = Object.keys(data.benchmark_lines);
    var failed = ids.filter(function (id) { return qcStatus(state[id], data.checks) === "failed"; });
    var kept = ids.filter(function (id) { return failed.indexOf(id) < 0; });
    return {
      benchmark: [data.benchmark_header].concat(kept.map(function (id) { return data.benchmark_lines[id]; })).join("\n") + "\n",
      rejected: failed.map(function (id) { return id + "\t" + failReason(state[id], data.checks) + "\n"; }).join("")
    };
  }

  function bindExports(data, state, reload) {
    document.getElementById("export-benchmark").addEventListener("click", function () {
      download("benchmark.csv", exports(data, state).benchmark, "text/csv");
    });
    document.getElementById("export-rejected").addEventListener("click", function () {
      download("qc_rejected.tsv", exports(data, state).rejected, "text/tab-separated-values");
    });
    document.getElementById("export-progress").addEventListener("click", function () {
      download("review.json", JSON.stringify({ site_key: data.site_key, review: state }, null, 1), "application/json");
    });
    document.getElementById("import-progress").addEventListener("change", function (event) {
      var file = event.target.files[0];
      if (!file) return;
      file.text().then(function (text) {
        var loaded = JSON.parse(text).review || {};
        saveState(data.site_key, loaded);
        state = loaded;
        reload(loaded);
      });
    });
  }

  /* ---------------------------------------------------------------- recording page */
  var LABEL = 150, LANE = 24, AXIS = 20, GAP = 12;

  function recordingPage(d) {
    var player = document.getElementById("player");
    var view = { zoom: 1, system: null, stopAt: null };
    var colours = {};
    d.speakers.forEach(function (s, i) { colours[s] = PALETTE[i % PALETTE.length]; });
    document.getElementById("facts").textContent = d.source + " · " + fmt(d.duration_seconds) + " s · " +
      (d.profile || "no profile") + (d.offset || d.length < d.duration_seconds ? " · excerpt " +
      clock(d.offset) + " to " + clock(d.offset + d.length) : "");
    var selector = document.getElementById("system");
    d.systems.forEach(function (s) { selector.appendChild(el("option", { value: s.id, text: s.name })); });
    function choose(id) {
      selector.value = id;
      view.system = d.systems.filter(function (s) { return s.id === selector.value; })[0] || null;
      draw(d, view, colours, playSpan);
      showScores(view.system, (d.metrics || []).map(function (m) { return m.name; }));
      words.show();
    }
    selector.addEventListener("change", function () { choose(selector.value); });
    document.getElementById("zoom-in").addEventListener("click", function () { view.zoom *= 2; draw(d, view, colours, playSpan); });
    document.getElementById("zoom-out").addEventListener("click", function () { view.zoom = Math.max(1, view.zoom / 2); draw(d, view, colours, playSpan); });
    function playSpan(start, end) {
      if (!player) return;
      player.currentTime = start;
      view.stopAt = end;
      player.play();
    }
    function tick() {
      var t = player ? player.currentTime : 0;
      if (view.stopAt !== null && t >= view.stopAt) { player.pause(); view.stopAt = null; }
      moveCursor(d, view, t);
      if (player && !player.paused) window.requestAnimationFrame(tick);
    }
    if (player) {
      player.addEventListener("play", function () { window.requestAnimationFrame(tick); });
      player.addEventListener("timeupdate", tick);
      player.addEventListener("seeked", tick);
      player.addEventListener("pause", function () { if (player.currentTime < (view.stopAt || 0)) view.stopAt = null; });
    }
    var words = wordView(d, view, playSpan);
    var wanted = hashParams();
    draw(d, view, colours, playSpan);
    if (wanted.system) choose(wanted.system); else words.show();
    window.addEventListener("resize", function () { draw(d, view, colours, playSpan); });
    legend(colours);
    reviewForm(d);
    featureTable(d);
    moveCursor(d, view, 0);
  }

  function wordView(d, view, playSpan) {
    if (!window.msbenchWordView) return { show: function () {} };
    return window.msbenchWordView(d, view, playSpan, { el: el, svg: svg, clock: clock, fmt: fmt }, hashParams());
  }

  function scale(d, view) {
    var wrap = document.getElementById("timeline-wrap");
    var fit = Math.max(300, wrap.clientWidth - LABEL - 12) / Math.max(d.length, 1e-3);
    return fit * view.zoom;
  }

  function draw(d, view, colours, playSpan) {
    var root = document.getElementById("timeline");
    var pps = scale(d, view);
    var x = function (t) { return LABEL + t * pps; };
    var sys = view.system;
    var refHeight = LANE * d.speakers.length;
    var hypTop = AXIS + refHeight + GAP;
    var height = hypTop + (sys ? LANE * sys.hyp_speakers.length : 0) + 4;
    root.setAttribute("width", Math.ceil(x(d.length) + 12));
    root.setAttribute("height", height);
    root.innerHTML = "";
    drawAxis(root, d, x, pps, height);
    d.overlaps.forEach(function (o) {
      root.appendChild(svg("rect", { class: "overlap", x: x(o[0]), y: AXIS, width: Math.max(1, x(o[1]) - x(o[0])), height: refHeight }));
    });
    d.switches.forEach(function (s) {
      root.appendChild(svg("rect", { class: "switch", x: x(s[0]), y: AXIS, width: Math.max(1.5, x(s[1]) - x(s[0])), height: refHeight,
        "data-start": s[0], "data-end": s[1] }));
    });
    d.speakers.forEach(function (s, i) {
      root.appendChild(svg("text", { x: 6, y: AXIS + i * LANE + 16, text: s }));
    });
    d.segments.forEach(function (seg, i) {
      var lane = d.speakers.indexOf(seg.speaker);
      var rect = svg("rect", { class: "segment", x: x(seg.start), y: AXIS + lane * LANE + 3, width: Math.max(1, x(seg.end) - x(seg.start)),
        height: LANE - 6, fill: colours[seg.speaker], "data-index": i, "data-start": seg.start, "data-end": seg.end });
      rect.appendChild(svg("title", { text: seg.speaker + " " + clock(d.offset + seg.start) + "–" + clock(d.offset + seg.end) + ": " + seg.words }));
      rect.addEventListener("click", function () { playSpan(seg.start, seg.end); });
      root.appendChild(rect);
    });
    if (sys) drawSystem(root, d, sys, x, hypTop, colours, playSpan);
    root.appendChild(svg("line", { id: "cursor", x1: x(0), x2: x(0), y1: 0, y2: height }));
  }

  function drawAxis(root, d, x, pps, height) {
    var steps = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800];
    var step = steps.filter(function (s) { return s * pps >= 70; })[0] || 3600;
    for (var t = 0; t <= d.length + 1e-9; t += step) {
      root.appendChild(svg("line", { class: "tick", x1: x(t), x2: x(t), y1: AXIS - 4, y2: height }));
      if (x(t) + 40 < x(d.length) + 12) root.appendChild(svg("text", { x: x(t) + 2, y: 12, text: clock(d.offset + t, step < 1 ? 1 : 0) }));
    }
  }

  function drawSystem(root, d, sys, x, top, colours, playSpan) {
    sys.marks.forEach(function (m) {
      if (m.mark === "correct") return;
      var lane = d.speakers.indexOf(m.speaker);
      if (lane < 0) return;
      var rect = svg("rect", { class: "mark mark-" + m.mark, x: x(m.start), y: AXIS + lane * LANE + 2,
        width: Math.max(2, x(m.end) - x(m.start)), height: LANE - 4, "data-mark": m.mark });
      root.appendChild(rect);
    });
    root.appendChild(svg("line", { class: "separator", x1: 0, x2: x(d.length), y1: top - GAP / 2, y2: top - GAP / 2 }));
    sys.hyp_speakers.forEach(function (s, i) {
      var mapped = sys.hyp_to_ref[s];
      root.appendChild(svg("text", { x: 6, y: top + i * LANE + 16, text: "hyp " + s + (mapped ? " → " + mapped : "") }));
    });
    sys.hyp_segments.forEach(function (seg) {
      var lane = sys.hyp_speakers.indexOf(seg.speaker);
      var mapped = sys.hyp_to_ref[seg.speaker];
      var rect = svg("rect", { class: "hyp", x: x(seg.start), y: top + lane * LANE + 3, width: Math.max(1, x(seg.end) - x(seg.start)),
        height: LANE - 6, fill: mapped ? colours[mapped] : "#999", "fill-opacity": 0.75 });
      rect.appendChild(svg("title", { text: "hyp " + seg.speaker + ": " + seg.words }));
      rect.addEventListener("click", function () { playSpan(seg.start, seg.end); });
      root.appendChild(rect);
    });
  }

  function moveCursor(d, view, t) {
    var pps = scale(d, view);
    var cursor = document.getElementById("cursor");
    if (cursor) { cursor.setAttribute("x1", LABEL + t * pps); cursor.setAttribute("x2", LABEL + t * pps); }
    document.getElementById("clock").textContent = clock(d.offset + t) + " / " + clock(d.offset + d.length);
    var wrap = document.getElementById("timeline-wrap");
    var px = LABEL + t * pps;
    if (px < wrap.scrollLeft + LABEL || px > wrap.scrollLeft + wrap.clientWidth - 40) wrap.scrollLeft = Math.max(0, px - LABEL - 40);
    var words = document.getElementById("words");
    if (view.onTime) view.onTime(d.offset + t);
    words.innerHTML = "";
    d.segments.filter(function (s) { return s.start <= t && t < s.end; }).forEach(function (s) {
      words.appendChild(el("p", {}, [el("b", { text: s.speaker }), document.createTextNode(s.words || "(no words)")]));
    });
    if (view.system) {
      view.system.hyp_segments.filter(function (s) { return s.start <= t && t < s.end; }).forEach(function (s) {
        words.appendChild(el("p", { class: "hyp-words" }, [el("b", { text: "hyp " + s.speaker }), document.createTextNode(s.words)]));
      });
    }
  }

  function legend(colours) {
    var items = [["overlap", "rgba(231,76,60,0.3)"], ["speaker switch", "#2c3e50"], ["misattributed", "#e67e22"],
      ["deletion", "#c0392b"], ["insertion", "#8e44ad"], ["substitution", "#d4ac0d"]];
    var node = document.getElementById("legend");
    items.forEach(function (item) {
      node.appendChild(el("span", {}, [el("i", { style: "background:" + item[1] }), document.createTextNode(item[0])]));
    });
  }

  function showScores(sys, metricNames) {
    var node = document.getElementById("scores");
    node.innerHTML = "";
    if (!sys) return;
    var keys = ["unit_id", "status"].concat(metricNames, ["reason", "degradation"]);
    var table = el("table", { id: "unit-scores" });
    table.appendChild(el("tr", {}, keys.map(function (k) { return el("th", { text: k }); })));
    sys.units.forEach(function (u) {
      table.appendChild(el("tr", {}, keys.map(function (k) { return el("td", { text: fmt(u[k]) }); })));
    });
    node.appendChild(el("h3", { text: sys.name + " on this recording (rates as fractions)" }));
    node.appendChild(table);
    sys.problems.forEach(function (p) { node.appendChild(el("p", { class: "note", text: p })); });
  }

  function reviewForm(d) {
    var state = loadState(d.site_key);
    var entry = state[d.recording_id] || { checks: {}, reasons: {} };
    var form = document.getElementById("checks");
    d.checks.forEach(function (c) {
      var set = el("fieldset", { "data-check": c[0] }, [el("legend", { text: c[1] })]);
      ["pass", "fail"].forEach(function (v) {
        var input = el("input", { type: "radio", name: c[0], value: v, id: c[0] + "-" + v });
        if (entry.checks[c[0]] === v) input.checked = true;
        input.addEventListener("change", update);
        set.appendChild(el("label", { for: c[0] + "-" + v }, [input, document.createTextNode(" " + v + " ")]));
      });
      var reason = el("input", { type: "text", name: c[0] + "-reason", id: c[0] + "-reason", placeholder: "reason (what, where)" });
      reason.value = (entry.reasons || {})[c[0]] || "";
      reason.addEventListener("input", update);
      set.appendChild(reason);
      form.appendChild(set);
    });
    function update() {
      entry = { checks: {}, reasons: {} };
      d.checks.forEach(function (c) {
        var chosen = form.querySelector("input[name=" + c[0] + "]:checked");
        entry.checks[c[0]] = chosen ? chosen.value : "";
        entry.reasons[c[0]] = document.getElementById(c[0] + "-reason").value;
      });
      state = loadState(d.site_key);
      state[d.recording_id] = entry;
      saveState(d.site_key, state);
      showStatus(d, entry);
    }
    showStatus(d, entry);
  }

  function showStatus(d, entry) {
    var status = qcStatus(entry, d.checks);
    var node = document.getElementById("status");
    node.className = "qc-" + status.replace(" ", "-");
    node.textContent = status === "failed" ? "failed: " + failReason(entry, d.checks) : status;
    var section = document.getElementById("candidates");
    section.hidden = status !== "failed";
    var list = section.querySelector("ol");
    list.innerHTML = "";
    section.querySelector(".note").textContent = d.candidates.length
      ? "The next run replaces this recording by one of the candidates at the smallest profile distance (axes that differ, then range steps):"
      : "No candidate outside the selection has a profile: this recording cannot be replaced.";
    d.candidates.forEach(function (c) {
      list.appendChild(el("li", { text: c.recording_id + " · " + c.profile + " · " + c.source + " · " + fmt(c.duration_seconds) +
        " s · distance " + c.hamming + " axes, " + c.ordinal + " steps" }));
    });
  }

  function featureTable(d) {
    var body = document.querySelector("#features tbody");
    body.appendChild(el("tr", {}, ["Axis", "Feature", "Value", "Range", "Interval", "Why"].map(function (h) { return el("th", { text: h }); })));
    d.features.forEach(function (f) {
      body.appendChild(el("tr", { "data-axis": f.axis }, [f.axis, f.field, fmt(f.value), f.label || "none", f.interval || "", f.why]
        .map(function (v) { return el("td", { text: v }); })));
    });
  }

  /* ---------------------------------------------------------------- probes page */
  function probesPage() {
    var items = Array.from(document.querySelectorAll("#items article.item"));
    var controls = document.getElementById("probe-controls");
    var filters = {};
    ["family", "task"].forEach(function (name) {
      var values = Array.from(new Set(items.map(function (i) { return i.getAttribute("data-" + name); }))).sort();
      var select = el("select", { id: "probe-" + name }, [el("option", { value: "", text: "all" })]);
      values.forEach(function (v) { select.appendChild(el("option", { value: v, text: v })); });
      select.addEventListener("change", function () { filters[name] = select.value; apply(); });
      controls.appendChild(el("label", {}, [document.createTextNode(" " + name + " "), select]));
    });
    var count = el("span", { id: "probe-count" });
    controls.appendChild(count);
    function apply() {
      var shown = 0;
      items.forEach(function (item) {
        var keep = ["family", "task"].every(function (n) { return !filters[n] || item.getAttribute("data-" + n) === filters[n]; });
        item.hidden = !keep;
        shown += keep ? 1 : 0;
      });
      count.textContent = " " + shown + " of " + items.length + " items";
    }
    apply();
  }

  /* a page reads its URL's #system=... once: a new fragment (a link within the page, a pasted
     URL) reloads it */
  window.addEventListener("hashchange", function () { window.location.reload(); });
  var page = document.body.getAttribute("data-page");
  if (page === "index") indexPage(window.MSBENCH_INDEX);
  else if (page === "probes") probesPage();
  else if (page === "recording") recordingPage(window.MSBENCH_RECORDING);
})();
