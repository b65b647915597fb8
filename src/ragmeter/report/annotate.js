/* ragmeter report, annotate mode: label the judge's scores in the page and export a labels file.
 *
 * Additive to report.js: it reads the same #report-data blob and watches the sample table for
 * opened details, adding to each metric card agree / disagree buttons, a corrected score and a
 * note. Labels are kept in the browser (localStorage, per run) and exported as JSON Lines that
 * `ragmeter align LABELS` reads. The rules are those of `ragmeter annotate`:
 *   agree -> the judge's score; disagree -> 0 if the score was >= 0.5 (a yes), else 1;
 *   a corrected score in [0, 1] -> that score.
 * Every text goes in through textContent or form values, never innerHTML. */
(function () {
  "use strict";

  var section = document.getElementById("annotate");
  if (!section) return;
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var METRICS = DATA.metrics;
  var BY_ROW = {};
  DATA.samples.forEach(function (s) { BY_ROW[s.row] = s; });
  var THRESHOLD = 0.5;
  var KEY = "ragmeter-labels:" + (section.getAttribute("data-run") || "run");
  var toggle = document.getElementById("annotate-on");
  var countNode = document.getElementById("annotate-count");
  var exportNode = document.getElementById("annotate-export");

  function load() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "{}"); } catch (e) { return {}; }
  }
  var labels = load(); /* row -> {labels: {metric: value}, notes: {metric: text}} */

  function save() {
    try { window.localStorage.setItem(KEY, JSON.stringify(labels)); } catch (e) { /* private mode: kept in memory */ }
    refresh();
  }

  function entry(row) {
    if (!labels[row]) labels[row] = { labels: {}, notes: {} };
    return labels[row];
  }

  function labelCount() {
    return Object.keys(labels).reduce(function (n, row) { return n + Object.keys(labels[row].labels).length; }, 0);
  }

  function records() {
    return Object.keys(labels).map(Number).sort(function (a, b) { return a - b; }).filter(function (row) {
      return BY_ROW[row] && Object.keys(labels[row].labels).length;
    }).map(function (row) {
      var s = BY_ROW[row], e = labels[row], record = {};
      if (s.id) record.id = s.id;
      if (s.q !== null && s.q !== undefined) record.question = s.q;
      if (s.a !== null && s.a !== undefined) record.answer = s.a;
      if (s.ctx) record.contexts = s.ctx;
      if (s.gt !== null && s.gt !== undefined) record.ground_truth = s.gt;
      if (s.more && s.more["reference contexts"]) record.reference_contexts = s.more["reference contexts"];
      if (s.conv) {  // a conversation: its messages and references, not the derived question and answer
        delete record.question; delete record.answer; delete record.ground_truth;
        record.messages = s.conv;
        if (s.gt !== null && s.gt !== undefined) record.reference = s.gt;
        ["reference tool calls", "reference topics", "retrieval tools"].forEach(function (k) {
          if (s.more && s.more[k]) record[k.replace(/ /g, "_")] = s.more[k];
        });
      }
      record.labels = e.labels;
      var notes = Object.keys(e.notes).filter(function (m) { return e.notes[m]; });
      var several = Object.keys(e.labels).length > 1; /* as `ragmeter annotate`: name the metric when there are several */
      if (notes.length) record.note = notes.map(function (m) { return several ? m + ": " + e.notes[m] : e.notes[m]; }).join("; ");
      return JSON.stringify(record);
    });
  }

  function refresh() {
    var lines = records();
    countNode.textContent = labelCount() + " label(s) on " + lines.length + " sample(s)";
    exportNode.textContent = lines.length ? lines.join("\n") + "\n" : "";
    Array.prototype.forEach.call(document.querySelectorAll(".annot"), function (box) {
      var e = labels[box.getAttribute("data-row")];
      var metric = box.getAttribute("data-metric");
      var value = e && metric in e.labels ? e.labels[metric] : null;
      box.querySelector(".annot-state").textContent = value === null ? "not labelled" : "label " + value;
    });
  }

  function setLabel(row, metric, value) {
    entry(row).labels[metric] = value;
    save();
  }

  function controls(row, index) {
    var metric = METRICS[index].name;
    var score = BY_ROW[row].v[index];
    var box = document.createElement("div");
    box.className = "annot";
    box.setAttribute("data-row", row);
    box.setAttribute("data-metric", metric);
    function button(text, cls, onClick) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      b.textContent = text;
      b.addEventListener("click", function (event) { event.stopPropagation(); onClick(); });
      return b;
    }
    if (score !== null && score !== undefined) {
      box.appendChild(button("agree", "annot-agree", function () { setLabel(row, metric, score); }));
      box.appendChild(button("disagree", "annot-disagree", function () { setLabel(row, metric, score >= THRESHOLD ? 0 : 1); }));
    }
    var corrected = document.createElement("input");
    corrected.type = "number"; corrected.min = "0"; corrected.max = "1"; corrected.step = "0.05";
    corrected.className = "annot-score"; corrected.placeholder = "score";
    corrected.addEventListener("click", function (event) { event.stopPropagation(); });
    corrected.addEventListener("change", function () {
      var v = parseFloat(corrected.value);
      if (!isNaN(v) && v >= 0 && v <= 1) setLabel(row, metric, v);
    });
    box.appendChild(corrected);
    var note = document.createElement("input");
    note.type = "text"; note.className = "annot-note"; note.placeholder = "note";
    var e = labels[row];
    if (e && e.notes[metric]) note.value = e.notes[metric];
    note.addEventListener("click", function (event) { event.stopPropagation(); });
    note.addEventListener("input", function () { entry(row).notes[metric] = note.value; save(); });
    box.appendChild(note);
    var state = document.createElement("span");
    state.className = "annot-state muted";
    box.appendChild(state);
    return box;
  }

  function decorate(detailRow) {
    if (!toggle.checked || detailRow.querySelector(".annot")) return;
    var srow = detailRow.previousElementSibling;
    var row = srow ? Number(srow.getAttribute("data-row")) : NaN;
    if (!BY_ROW[row]) return;
    Array.prototype.forEach.call(detailRow.querySelectorAll(".mcard"), function (card, index) {
      if (index < METRICS.length && BY_ROW[row].s[index]) card.appendChild(controls(row, index));
    });
    refresh();
  }

  function decorateAll() {
    Array.prototype.forEach.call(document.querySelectorAll("tr.detail-row"), decorate);
  }

  var table = document.getElementById("samples-table");
  if (table) {
    new MutationObserver(function () { decorateAll(); }).observe(table, { childList: true, subtree: true });
  }
  toggle.addEventListener("change", function () {
    if (toggle.checked) decorateAll();
    else Array.prototype.forEach.call(document.querySelectorAll(".annot"), function (box) { box.remove(); });
  });
  document.getElementById("annotate-download").addEventListener("click", function () {
    var text = exportNode.textContent;
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
    link.download = "labels.jsonl";
    document.body.appendChild(link);
    link.click();
    link.remove();
  });
  document.getElementById("annotate-clear").addEventListener("click", function () {
    if (window.confirm("Forget every label of this run kept in this browser?")) { labels = {}; save(); decorateAll(); }
  });
  refresh();
})();
