/* ragmeter report: draws the charts and the sample table from the JSON in #report-data.
 *
 * Every text from the run (questions, answers, reasons, verdicts) is put into the page with
 * textContent, never innerHTML, so a sample that contains markup shows it as text.
 * No library besides plotly.js, which the page inlines before this script. */
(function () {
  "use strict";

  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var METRICS = DATA.metrics;
  var SAMPLES = DATA.samples;
  var PAGE = 200; // rows drawn at a time: thousands of rows would make the page sluggish
  var MAX_DEPTH = 6;

  /* el("div", {className: "x", text: "y"}, [child, "text"]) */
  function el(tag, props, children) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (key) {
        if (key === "text") node.textContent = props[key];
        else if (key === "attrs") Object.keys(props.attrs).forEach(function (a) { node.setAttribute(a, props.attrs[a]); });
        else node[key] = props[key];
      });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function fmt(value, digits) {
    return value === null || value === undefined ? "—" : value.toFixed(digits);
  }

  /* 0 (bad) .. 1 (good), whatever the metric's direction */
  function goodness(value, metric) {
    return metric.higherIsBetter ? value : 1 - value;
  }

  function scoreColor(value, metric) {
    return "hsl(" + Math.round(goodness(value, metric) * 120) + ",60%,90%)";
  }

  /* ---------- charts ---------- */

  function drawCharts() {
    if (typeof Plotly === "undefined") return;
    var config = {
      displaylogo: false,
      responsive: true,
      displayModeBar: false // small static histograms: zoom tools would only hide the data
    };
    DATA.charts.forEach(function (chart) {
      var node = document.getElementById(chart.id);
      if (node) Plotly.newPlot(node, chart.figure.data, chart.figure.layout, config);
    });
  }

  /* ---------- verdicts: any JSON, as nested tables and lists ---------- */

  function isPlainObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  function isScalar(value) {
    return value === null || typeof value !== "object";
  }

  function scalarNode(value) {
    if (value === null) return el("span", { className: "null", text: "null" });
    if (typeof value === "boolean") return el("span", { className: value ? "yes" : "no", text: String(value) });
    if (typeof value === "number") return el("span", { className: "numv", text: String(Math.round(value * 10000) / 10000) });
    return el("span", { className: "str", text: String(value) });
  }

  /* An array of flat objects reads best as a table (one row per claim, chunk...). */
  function tableColumns(items) {
    if (!items.length || !items.every(isPlainObject)) return null;
    var columns = [];
    items.forEach(function (item) {
      Object.keys(item).forEach(function (key) { if (columns.indexOf(key) < 0) columns.push(key); });
    });
    if (columns.length > 8) return null;
    var nested = items.some(function (item) {
      return columns.some(function (key) {
        var v = item[key];
        return !(isScalar(v) || (Array.isArray(v) && v.every(isScalar) && v.length <= 8));
      });
    });
    return nested ? null : columns;
  }

  function renderValue(value, depth) {
    if (isScalar(value)) return scalarNode(value);
    if (depth >= MAX_DEPTH) return el("pre", { className: "json", text: JSON.stringify(value, null, 2) });
    if (Array.isArray(value)) {
      if (!value.length) return el("span", { className: "null", text: "(empty list)" });
      if (value.every(isScalar) && value.every(function (v) { return typeof v !== "string" || v.length < 40; })) {
        return el("span", { className: "inline-list" }, value.map(function (v, i) {
          return el("span", null, [i ? ", " : "", scalarNode(v)]);
        }));
      }
      var columns = tableColumns(value);
      if (columns) {
        var head = el("tr", null, [el("th", { text: "#" })].concat(columns.map(function (c) { return el("th", { text: c }); })));
        var rows = value.map(function (item, i) {
          return el("tr", null, [el("td", { className: "muted", text: String(i + 1) })].concat(columns.map(function (c) {
            return el("td", null, [c in item ? renderValue(item[c], depth + 1) : el("span", { className: "null", text: "" })]);
          })));
        });
        return el("table", { className: "vtable" }, [el("thead", null, [head]), el("tbody", null, rows)]);
      }
      return el("ol", { className: "vlist" }, value.map(function (v) { return el("li", null, [renderValue(v, depth + 1)]); }));
    }
    var keys = Object.keys(value);
    if (!keys.length) return el("span", { className: "null", text: "(empty)" });
    return el("dl", { className: "vdict" }, [].concat.apply([], keys.map(function (key) {
      return [el("dt", { text: key }), el("dd", null, [renderValue(value[key], depth + 1)])];
    })));
  }

  /* ---------- one sample's details ---------- */

  function textBlock(label, value) {
    if (value === null || value === undefined || value === "") return null;
    return el("div", { className: "field" }, [el("h4", { text: label }), el("div", { className: "text", text: value })]);
  }

  function metricCard(metric, i, sample) {
    var detail = sample.s[i];
    var value = sample.v[i];
    var head = el("div", { className: "mhead" }, [el("b", { text: metric.name })]);
    var card = el("div", { className: "mcard" }, [head]);
    if (!detail) {
      head.appendChild(el("span", { className: "muted", text: " not run on this sample" }));
      return card;
    }
    if (value !== null) {
      head.appendChild(el("span", { className: "score", text: fmt(value, 3), attrs: { style: "background:" + scoreColor(value, metric) } }));
    } else if (detail.e) {
      card.className += " failed";
      head.appendChild(el("span", { className: "kind", text: detail.e.kind }));
    }
    if (DATA.hasBaseline && sample.b) {
      head.appendChild(el("span", { className: "muted base", text: "baseline " + fmt(sample.b[i], 3) }));
    }
    if (detail.e) {
      card.appendChild(el("p", { className: "errmsg" }, [
        el("b", { text: detail.e.kind + ": " }), detail.e.message,
        detail.e.transient ? el("span", { className: "muted", text: " (transient: a rerun may succeed)" }) : null
      ]));
    }
    if (detail.r && !(detail.e && detail.r === detail.e.message)) {
      card.appendChild(el("p", { className: "reason", text: detail.r }));
    }
    if (DATA.hasBaseline && sample.br && sample.br[i] && sample.br[i] !== detail.r) {
      card.appendChild(el("p", { className: "reason muted" }, [el("i", { text: "baseline: " }), sample.br[i]]));
    }
    if (detail.vd !== undefined && detail.vd !== null) {
      card.appendChild(el("details", { className: "verdicts", open: true }, [
        el("summary", { text: "verdicts" }),
        renderValue(detail.vd, 0),
        el("details", { className: "raw" }, [el("summary", { text: "JSON" }),
          el("pre", { className: "json", text: JSON.stringify(detail.vd, null, 2) })])
      ]));
    }
    return card;
  }

  /* A conversation, message by message: who spoke, what was said, the tools called. */
  function conversationBlock(conv) {
    var user = 0, reply = 0;
    var items = conv.map(function (m) {
      var label = m.role;
      if (m.role === "user") label = "user " + (++user);
      else if (m.role === "assistant" && m.content) label = "assistant " + (++reply);
      else if (m.role === "tool" && m.name) label = "tool " + m.name;
      var parts = [el("b", { className: "role", text: label })];
      if (m.content) parts.push(el("div", { className: "text", text: m.content }));
      (m.tool_calls || []).forEach(function (c) {
        parts.push(el("code", { className: "call", text: "→ " + c.name + "(" + JSON.stringify(c.arguments || {}) + ")" }));
      });
      if (m.contexts) parts.push(el("span", { className: "muted", text: " (" + m.contexts.length + " contexts)" }));
      return el("li", { className: "msg " + m.role }, parts);
    });
    return el("div", { className: "field" }, [el("h4", { text: "Conversation (" + conv.length + " messages)" }),
      el("ol", { className: "conversation" }, items)]);
  }

  function detailPanel(sample) {
    var children = sample.conv ? [conversationBlock(sample.conv), textBlock("Reference outcome", sample.gt)] : [
      textBlock("Question", sample.q),
      textBlock("Answer", sample.a),
      textBlock("Ground truth", sample.gt)
    ];
    if (sample.conv) {
      // a conversation's contexts are its turns' own, shown with each turn's scores
    } else if (sample.ctx && sample.ctx.length) {
      children.push(el("div", { className: "field" }, [
        el("h4", { text: "Contexts (" + sample.ctx.length + ", in retrieval order)" }),
        el("ol", { className: "contexts" }, sample.ctx.map(function (c) { return el("li", null, [el("div", { className: "text", text: c })]); }))
      ]));
    } else {
      children.push(el("div", { className: "field" }, [el("h4", { text: "Contexts" }), el("span", { className: "null", text: "none" })]));
    }
    if (sample.more) children.push(el("div", { className: "field" }, [el("h4", { text: "Other fields" }), renderValue(sample.more, 0)]));
    children.push(el("h4", { text: "Scores" }));
    children.push(el("div", { className: "mcards" }, METRICS.map(function (m, i) { return metricCard(m, i, sample); })));
    var title = "Sample row " + sample.row + (sample.id ? " · " + sample.id : "");
    return el("div", { className: "detail", attrs: { role: "region", "aria-label": title } }, [el("h3", { text: title })].concat(children));
  }

  /* ---------- the table ---------- */

  var hasIds = SAMPLES.some(function (s) { return s.id; });
  var COLUMNS = [{ key: "row", label: "#", type: "num" }];
  if (hasIds) COLUMNS.push({ key: "id", label: "id", type: "text" });
  COLUMNS.push({ key: "q", label: "question", type: "text" }, { key: "a", label: "answer", type: "text" });
  METRICS.forEach(function (m, i) { COLUMNS.push({ key: "m" + i, label: m.name, type: "metric", index: i, metric: m }); });

  /* Fixed column widths; question and answer share what is left (at least TEXT_MIN each).
   * A metric's column is as wide as the longest part of its name between underscores (the
   * header wraps there), so names do not break mid-word and short ones take little room. */
  var WIDTHS = { row: 52, id: 110 };
  var TEXT_MIN = 160;

  function columnWidth(column) {
    if (column.type !== "metric") return WIDTHS[column.key] || null;
    var parts = column.label.split("_");
    var longest = Math.max.apply(null, parts.map(function (part, i) { return part.length + (i < parts.length - 1 ? 1 : 0); }));
    return Math.max(64, Math.min(120, Math.round(16 + 6.4 * longest)));
  }

  var state = { filter: "", onlyErrors: false, sortKey: "row", sortDir: 1, shown: PAGE, open: {} };
  var haystacks = null;
  var table = document.getElementById("samples-table");
  var thead = table.querySelector("thead");
  var tbody = table.querySelector("tbody");
  var moreButton = document.getElementById("more");
  var countNode = document.getElementById("count");
  var worstSelect = document.getElementById("worst");

  function hasError(sample) {
    return sample.s.some(function (d) { return d && d.e; });
  }

  function sortValue(sample, column) {
    if (column.type === "metric") return sample.v[column.index];
    if (column.key === "row") return sample.row;
    var v = sample[column.key];
    return v === null || v === undefined ? null : String(v).toLowerCase();
  }

  function worstDir(metric) {
    return metric.higherIsBetter ? 1 : -1;
  }

  function visibleSamples() {
    var needle = state.filter.trim().toLowerCase();
    if (needle && !haystacks) {
      haystacks = SAMPLES.map(function (s) { return [s.id || "", s.q || "", s.a || ""].join("\n").toLowerCase(); });
    }
    var list = [];
    SAMPLES.forEach(function (s, i) {
      if (state.onlyErrors && !hasError(s)) return;
      if (needle && haystacks[i].indexOf(needle) < 0) return;
      list.push(s);
    });
    var column = COLUMNS.filter(function (c) { return c.key === state.sortKey; })[0] || COLUMNS[0];
    var dir = state.sortDir;
    list.sort(function (x, y) {
      var a = sortValue(x, column), b = sortValue(y, column);
      if (a === null || a === undefined) return b === null || b === undefined ? x.row - y.row : 1; // empty last
      if (b === null || b === undefined) return -1;
      if (a < b) return -dir;
      if (a > b) return dir;
      return x.row - y.row;
    });
    return list;
  }

  function drawHead() {
    var row = el("tr");
    COLUMNS.forEach(function (column) {
      var sorted = state.sortKey === column.key;
      var arrow = sorted ? (state.sortDir > 0 ? " ▲" : " ▼") : "";
      // metric names wrap at their underscores so that many metrics fit beside the texts
      var label = column.type === "metric" ? column.label.replace(/_/g, "_\u200b") : column.label;
      var th = el("th", {
        className: "sortable " + column.type,
        text: label + arrow,
        tabIndex: 0,
        title: column.type === "metric" ? "sort by " + column.label + " (first click: worst first)" : "sort by " + column.label,
        attrs: { "aria-sort": sorted ? (state.sortDir > 0 ? "ascending" : "descending") : "none", "data-key": column.key }
      });
      if (columnWidth(column)) th.style.width = columnWidth(column) + "px";
      th.addEventListener("click", function () { sortBy(column); });
      th.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(column); }
      });
      row.appendChild(th);
    });
    thead.textContent = "";
    thead.appendChild(row);
  }

  function sortBy(column) {
    if (state.sortKey === column.key) {
      state.sortDir = -state.sortDir;
    } else {
      state.sortKey = column.key;
      state.sortDir = column.type === "metric" ? worstDir(column.metric) : 1;
    }
    syncWorstSelect();
    render();
  }

  function syncWorstSelect() {
    var column = COLUMNS.filter(function (c) { return c.key === state.sortKey; })[0];
    var worst = column && column.type === "metric" && state.sortDir === worstDir(column.metric);
    worstSelect.value = worst ? column.key : "";
  }

  function metricCell(sample, column) {
    var i = column.index;
    var value = sample.v[i];
    var detail = sample.s[i];
    var td = el("td", { className: "num" });
    if (value === null) {
      if (detail && detail.e) {
        td.appendChild(el("span", { className: "kind small", text: detail.e.kind, title: detail.e.message }));
      } else {
        td.appendChild(el("span", { className: "null", text: "—", title: "not run on this sample" }));
      }
      return td;
    }
    td.style.background = scoreColor(value, column.metric);
    td.appendChild(document.createTextNode(value.toFixed(2)));
    if (DATA.hasBaseline && sample.b && sample.b[i] !== null && sample.b[i] !== undefined) {
      var diff = value - sample.b[i];
      td.title = "baseline " + sample.b[i].toFixed(3) + " (" + (diff >= 0 ? "+" : "") + diff.toFixed(3) + ")";
      if (Math.abs(diff) >= 0.05) {
        var better = column.metric.higherIsBetter ? diff > 0 : diff < 0;
        td.appendChild(el("span", { className: "chg " + (better ? "up" : "down"), text: diff > 0 ? " ▲" : " ▼" }));
      }
    }
    return td;
  }

  function dataRow(sample) {
    var tr = el("tr", { className: "srow" + (hasError(sample) ? " has-error" : "") + (state.open[sample.row] ? " open" : ""),
      tabIndex: 0, id: "sample-" + sample.row, attrs: { "data-row": sample.row, "aria-expanded": state.open[sample.row] ? "true" : "false" } });
    COLUMNS.forEach(function (column) {
      if (column.type === "metric") { tr.appendChild(metricCell(sample, column)); return; }
      var value = column.key === "row" ? String(sample.row) : sample[column.key];
      var cls = column.key === "row" ? "num muted" : "";
      tr.appendChild(el("td", { className: cls }, [el("div", { className: column.key === "row" ? "" : "clip", text: value || "" })]));
    });
    function toggle() {
      if (state.open[sample.row]) delete state.open[sample.row];
      else state.open[sample.row] = true;
      var next = tr.nextSibling;
      if (next && next.classList.contains("detail-row")) {
        tbody.removeChild(next);
        tr.classList.remove("open");
        tr.setAttribute("aria-expanded", "false");
      } else {
        tbody.insertBefore(detailRow(sample), tr.nextSibling);
        tr.classList.add("open");
        tr.setAttribute("aria-expanded", "true");
      }
    }
    tr.addEventListener("click", function (event) {
      if (window.getSelection && String(window.getSelection()).length) return; // selecting text, not opening
      toggle();
    });
    tr.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
    });
    return tr;
  }

  function detailRow(sample) {
    return el("tr", { className: "detail-row" }, [el("td", { colSpan: COLUMNS.length }, [detailPanel(sample)])]);
  }

  function render() {
    drawHead();
    var list = visibleSamples();
    var fragment = document.createDocumentFragment();
    list.slice(0, state.shown).forEach(function (sample) {
      fragment.appendChild(dataRow(sample));
      if (state.open[sample.row]) fragment.appendChild(detailRow(sample));
    });
    tbody.textContent = "";
    tbody.appendChild(fragment);
    var shown = Math.min(state.shown, list.length);
    countNode.textContent = list.length === SAMPLES.length
      ? (shown < list.length ? "showing " + shown + " of " : "") + SAMPLES.length + " samples"
      : "showing " + shown + " of " + list.length + " matching (" + SAMPLES.length + " in all)";
    moreButton.hidden = list.length <= state.shown;
    moreButton.textContent = "show " + Math.min(PAGE, list.length - state.shown) + " more";
    return list;
  }

  /* Open one sample (from the Errors list or a #sample-N link), wherever it is in the table. */
  function openSample(row) {
    var sample = SAMPLES.filter(function (s) { return s.row === row; })[0];
    if (!sample) return;
    var list = visibleSamples();
    if (list.indexOf(sample) < 0) {
      state.filter = ""; state.onlyErrors = false;
      document.getElementById("filter").value = "";
      document.getElementById("only-errors").checked = false;
      list = visibleSamples();
    }
    var index = list.indexOf(sample);
    if (index >= state.shown) state.shown = Math.ceil((index + 1) / PAGE) * PAGE;
    state.open[row] = true;
    render();
    var node = document.getElementById("sample-" + row);
    if (node) node.scrollIntoView({ block: "start" });
  }

  function setUp() {
    var fixed = COLUMNS.reduce(function (sum, c) { return sum + (columnWidth(c) || TEXT_MIN); }, 0);
    table.style.minWidth = fixed + "px";
    METRICS.forEach(function (m, i) {
      worstSelect.appendChild(el("option", { value: "m" + i, text: m.name }));
    });
    worstSelect.addEventListener("change", function () {
      var key = worstSelect.value;
      if (!key) { state.sortKey = "row"; state.sortDir = 1; }
      else {
        state.sortKey = key;
        state.sortDir = worstDir(METRICS[+key.slice(1)]);
      }
      state.shown = PAGE;
      render();
    });
    var filter = document.getElementById("filter");
    var timer = null;
    filter.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.filter = filter.value; state.shown = PAGE; render(); }, 120);
    });
    document.getElementById("only-errors").addEventListener("change", function (event) {
      state.onlyErrors = event.target.checked; state.shown = PAGE; render();
    });
    moreButton.addEventListener("click", function () { state.shown += PAGE; render(); });
    Array.prototype.forEach.call(document.querySelectorAll("[data-open-row]"), function (link) {
      link.addEventListener("click", function (event) {
        event.preventDefault();
        openSample(+link.getAttribute("data-open-row"));
      });
    });
    render();
    var match = /^#sample-(\d+)$/.exec(window.location.hash);
    if (match) openSample(+match[1]);
  }

  setUp();
  drawCharts();
})();
