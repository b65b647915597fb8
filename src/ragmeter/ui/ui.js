/* ragmeter ui: the runs table, trend charts and compare view, drawn from the JSON API.
 *
 * Every text from the store (ids, tags, questions, reasons) goes into the page through
 * textContent, never innerHTML. Requests go to this same server (the access token, when
 * there is one, rides in its cookie); plotly.js is served by it too: no network needed. */
(function () {
  "use strict";

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
    return value === null || value === undefined ? "—" : value.toFixed(digits === undefined ? 3 : digits);
  }

  function when(epoch) {
    return epoch ? new Date(epoch * 1000).toISOString().replace("T", " ").slice(0, 19) : "";
  }

  function api(path) {
    return fetch(path, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(path + ": HTTP " + response.status);
      return response.json();
    });
  }

  function query(params) {
    return Object.keys(params).filter(function (k) { return params[k]; })
      .map(function (k) { return encodeURIComponent(k) + "=" + encodeURIComponent(params[k]); }).join("&");
  }

  function showError(where, error) {
    where.appendChild(el("p", { className: "error", text: String(error) }));
  }

  /* ---------- runs page ---------- */

  function runsPage() {
    var table = document.getElementById("runs-table");
    var form = document.getElementById("filters");
    var datasetSelect = document.getElementById("f-dataset");
    var compareButton = document.getElementById("compare-button");
    var picked = { a: null, b: null };

    function filters() {
      return {
        tag: document.getElementById("f-tag").value.trim(),
        branch: document.getElementById("f-branch").value.trim(),
        dataset: datasetSelect.value,
        status: document.getElementById("f-status").value
      };
    }

    function pick(which, id) {
      picked[which] = id;
      compareButton.disabled = !(picked.a && picked.b && picked.a !== picked.b);
      Array.prototype.forEach.call(table.tBodies[0].rows, function (tr) {
        tr.classList.toggle("picked-a", tr.dataset.run === picked.a);
        tr.classList.toggle("picked-b", tr.dataset.run === picked.b);
      });
    }

    function drawRuns(runs) {
      var metrics = [];
      runs.forEach(function (r) { r.metrics.forEach(function (m) { if (metrics.indexOf(m) < 0) metrics.push(m); }); });
      var head = el("tr", null, ["A", "B", "run", "started (UTC)", "status", "test set", "git", "judge", "samples"]
        .concat(metrics).concat(["tags"]).map(function (h) { return el("th", { text: h }); }));
      table.tHead.replaceChildren(head);
      var body = table.tBodies[0];
      body.replaceChildren();
      runs.forEach(function (r) {
        var radios = ["a", "b"].map(function (which) {
          var input = el("input", { type: "radio", name: "pick-" + which, value: r.id,
                                    attrs: { "aria-label": "pick " + r.id + " as " + which.toUpperCase() } });
          input.disabled = r.status !== "finished";
          input.addEventListener("change", function () { pick(which, r.id); });
          return el("td", null, [input]);
        });
        var link = el("a", { href: "/report?" + query({ run: r.id }), text: r.id });
        var git = r.git_commit ? (r.git_branch || "") + "@" + r.git_commit.slice(0, 7) : "";
        var cells = radios.concat([
          el("td", null, [link]), el("td", { text: when(r.started) }), el("td", { text: r.status }),
          el("td", { className: "src", text: (r.source || "").split("/").pop() + " " + (r.dataset || "").slice(0, 8) }),
          el("td", { text: git }), el("td", { text: r.judge || "" }), el("td", { className: "num", text: String(r.samples) })
        ]).concat(metrics.map(function (m) {
          var s = r.summary && r.summary[m];
          return el("td", { className: "num", text: s ? fmt(s.mean) : "" });
        })).concat([el("td", { className: "tags", text: r.tags.join(", ") })]);
        var tr = el("tr", null, cells);
        tr.dataset.run = r.id;
        body.appendChild(tr);
      });
      document.getElementById("run-count").textContent = runs.length + " run" + (runs.length === 1 ? "" : "s");
    }

    function drawTrends(dataset) {
      var holder = document.getElementById("trend-charts");
      holder.replaceChildren();
      if (!dataset) return;
      api("/api/trend?" + query({ dataset: dataset, tag: filters().tag })).then(function (trend) {
        Object.keys(trend.metrics).forEach(function (metric, i) {
          var points = trend.metrics[metric];
          var chart = el("div", { className: "chart trend", id: "trend-" + i });
          holder.appendChild(el("figure", { className: "chartcard" }, [el("figcaption", { text: metric }), chart]));
          if (typeof Plotly === "undefined") return;
          Plotly.newPlot(chart, [{
            type: "scatter", mode: "lines+markers", name: metric,
            x: points.map(function (p) { return p.at; }),  /* UTC, as the table */
            y: points.map(function (p) { return p.mean; }),
            error_y: {
              type: "data", symmetric: false,
              array: points.map(function (p) { return p.ci_high === null ? 0 : p.ci_high - p.mean; }),
              arrayminus: points.map(function (p) { return p.ci_low === null ? 0 : p.mean - p.ci_low; })
            },
            text: points.map(function (p) {
              return p.run + (p.commit ? " " + (p.branch || "") + "@" + p.commit.slice(0, 7) : "");
            }),
            hovertemplate: "%{text}<br>mean %{y:.3f}<extra></extra>"
          }], {
            /* the server's range: one run, or runs a moment apart, would get ticks a microsecond apart */
            height: 260, margin: { l: 44, r: 12, t: 10, b: 40 }, yaxis: { range: [0, 1.02], title: "mean" },
            xaxis: trend.time_range ? { type: "date", range: trend.time_range } : { type: "date" },
            showlegend: false
          }, { displaylogo: false, responsive: true, displayModeBar: false });
        });
        if (!Object.keys(trend.metrics).length) holder.appendChild(el("p", { className: "muted", text: "No finished runs." }));
      }).catch(function (error) { showError(holder, error); });
    }

    function refresh() {
      var f = filters();
      api("/api/runs?" + query(f)).then(drawRuns).catch(function (error) { showError(table.parentNode, error); });
      drawTrends(f.dataset);
    }

    form.addEventListener("submit", function (event) { event.preventDefault(); refresh(); });
    datasetSelect.addEventListener("change", refresh);
    compareButton.addEventListener("click", function () {
      window.location.href = "/compare?" + query({ a: picked.a, b: picked.b });
    });
    table.appendChild(el("thead"));
    table.appendChild(el("tbody"));
    api("/api/datasets").then(function (sets) {
      sets.forEach(function (d) {
        var label = d.name === d.dataset || d.name.indexOf(d.dataset) === 0 ? d.name + " (" + d.runs + " runs)"
          : d.name + " (" + d.dataset.slice(0, 8) + ", " + d.runs + " runs)";
        datasetSelect.appendChild(el("option", { value: d.dataset, text: label }));
      });
      var wanted = new URLSearchParams(window.location.search).get("dataset");
      if (wanted) datasetSelect.value = wanted;
      else if (sets.length) datasetSelect.value = sets[0].dataset;
      refresh();
    }).catch(function (error) { showError(table.parentNode, error); });
  }

  /* ---------- compare page ---------- */

  function comparePage() {
    var a = document.body.dataset.a, b = document.body.dataset.b;
    document.getElementById("compare-head").textContent = "A (baseline) " + a + " · B " + b;
    document.getElementById("report-frame").src = "/report?" + query({ run: b, baseline: a });
    api("/api/compare?" + query({ a: a, b: b, k: 5 })).then(function (cmp) {
      if (cmp.differences.length) {  // the same sentence `ragmeter runs compare` prints
        var items = cmp.differences.map(function (d) { return d.what + " (A " + d.baseline + ", B " + d.current + ")"; });
        var listed = items.length === 1 ? items[0] : items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
        var warning = document.getElementById("compare-warning");
        warning.textContent = "warning: A and B differ in " + listed + ": the deltas measure that change too, not only the app's";
        warning.hidden = false;
      }
      var body = document.querySelector("#compare-table tbody");
      cmp.metrics.forEach(function (c) {
        var delta = c.delta === null ? "n/a" : (c.delta >= 0 ? "+" : "") + fmt(c.delta) + " [" + fmt(c.ci_low) + ", " + fmt(c.ci_high) + "]";
        var status = el("span", { className: "status " + c.status.replace(" ", "-"), text: c.status });
        body.appendChild(el("tr", null, [
          el("td", { text: c.metric }), el("td", { text: fmt(c.baseline_mean) }), el("td", { text: fmt(c.current_mean) }),
          el("td", { text: delta }), el("td", { text: String(c.paired) }), el("td", null, [status, c.note ? " " + c.note : ""])
        ]));
      });
      var moved = document.querySelector("#moved-table tbody");
      cmp.moved.forEach(function (m) {
        moved.appendChild(el("tr", { className: "moved" }, [
          el("td", { text: m.metric }), el("td", { text: m.id || "row " + m.row }), el("td", { text: m.question }),
          el("td", { text: fmt(m.before) }), el("td", { text: fmt(m.after) }),
          el("td", { className: m.better ? "up" : "down", text: (m.delta > 0 ? "+" : "") + fmt(m.delta) }),
          el("td", { className: "reason", text: m.reason_before }), el("td", { className: "reason", text: m.reason_after })
        ]));
      });
      if (!cmp.moved.length) moved.appendChild(el("tr", null, [el("td", { colSpan: 8, className: "muted", text: "No sample moved." })]));
    }).catch(function (error) { showError(document.getElementById("comparison"), error); });
  }

  if (document.body.dataset.page === "runs") runsPage();
  else if (document.body.dataset.page === "compare") comparePage();
})();
