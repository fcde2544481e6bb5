/// The report's style sheet, controls and script, inlined in every file (no network, no fonts
/// to fetch: the system's sans-serif and monospace faces).
enum TimelineAssets {
    static let css = """
        body{font:13px system-ui,sans-serif;margin:16px;color:#1d2430;background:#fff}
        h1{font-size:18px;margin:0 0 4px}
        p.note{margin:2px 0;color:#4a5363}
        .legend span{display:inline-block;margin-right:14px}
        .legend i{display:inline-block;width:12px;height:10px;margin-right:4px;vertical-align:middle}
        .controls{margin:6px 0 0;display:flex;gap:6px;align-items:center;flex-wrap:wrap}
        .controls button{font:inherit;padding:1px 9px}
        .controls .hint{color:#4a5363}
        #view{font:12px ui-monospace,monospace}
        svg#timeline{display:block;margin-top:6px;width:100%;user-select:none;touch-action:pan-y}
        svg text{font-size:11px;fill:#1d2430}
        text.label{font:11px ui-monospace,"DejaVu Sans Mono",monospace}
        text.group{font-weight:600;font-size:12px}
        text.axis,text.segment{fill:#4a5363}
        text.segment{font-weight:600}
        line.grid{stroke:#e3e6ea}
        rect.gap{fill:#eceef1}
        rect.lane{fill:#000;fill-opacity:.035}
        svg.plot{cursor:grab}
        svg.dragging svg.plot{cursor:grabbing}
        .z line{vector-effect:non-scaling-stroke}
        line.m.tick{stroke-width:1}
        line.m.tick.agg,svg.values line.m.tick{stroke-width:2}
        line.m.point{stroke-width:11;stroke-linecap:round}
        .found{fill:#1f77b4;stroke:#1f77b4;background:#1f77b4}
        .found.open{fill:#6baed6;stroke:#6baed6;background:#6baed6}
        .active{fill:#dbe9f6;stroke:#dbe9f6;background:#dbe9f6}
        .counted{fill:#2ca02c;stroke:#2ca02c;background:#2ca02c}
        .not-counted{fill:#b0b6bf;stroke:#b0b6bf;background:#b0b6bf}
        .seen{fill:#8c6d31;stroke:#8c6d31;background:#8c6d31}
        .state{fill:#fde0c5;stroke:#fde0c5;background:#fde0c5}
        .expiry{fill:#9467bd;stroke:#9467bd;background:#9467bd}
        .error{fill:#d62728;stroke:#d62728;background:#d62728}
        .event{fill:#17becf;stroke:#17becf;background:#17becf}
        rect.m{stroke:none}
        .m:hover{opacity:.7;cursor:pointer}
        h2{font-size:15px;margin:18px 0 4px}
        table.data{border-collapse:collapse;font:12px ui-monospace,monospace;margin:4px 0 12px}
        table.data th,table.data td{padding:2px 8px;border-bottom:1px solid #e3e6ea;text-align:left;vertical-align:top}
        table.data th{font:600 12px system-ui,sans-serif;background:#f6f7f9;position:sticky;top:0}
        table.data td{white-space:nowrap}
        table.data td:nth-child(3),table.data td:last-child{white-space:normal}
        #info{position:sticky;bottom:0;background:#fffbe6;border:1px solid #e6d9a2;padding:6px 8px;
        font:12px ui-monospace,monospace;white-space:pre-wrap;min-height:2.6em}
        """

    /// The zoom buttons, the visible interval (filled by the script) and how to zoom and pan.
    static let controls = """
        <div class="controls"><button type="button" data-zoom="in" title="zoom in (+)">+</button>\
        <button type="button" data-zoom="out" title="zoom out (-)">&#8722;</button>\
        <button type="button" data-zoom="reset" title="show everything (0)">reset</button>\
        <span id="view"></span><span class="hint">wheel over the plot or + and &#8722; zoom; \
        drag, shift+wheel or &#8592; &#8594; pan; 0 resets</span></div>

        """

    /// Lays the lanes out to the window's width and the reader's zoom, draws the axis, and
    /// explains marks. The view is a zoom `k` (1 shows everything, at most 100,000) and the
    /// unzoomed x `v0` at the plot's left edge; every `g.z` is scaled and shifted to it, the
    /// axis is drawn anew (ticks at least 80 pixels apart, per segment, with gaps shaded; a
    /// segment's short label when its label does not fit; a label that would overlap the one
    /// before it is left out with its grid line),
    /// and `#view` and the svg's `data-view-start`/`data-view-end` (seconds after the axis
    /// origin) say what is visible. Hovering a mark shows its explanation in the panel: for a
    /// tick, of every tick within its 2-pixel column at this zoom; a click pins it there until
    /// the next click (a drag is not a click).
    static let script = """
        (function () {
          var svg = document.getElementById('timeline');
          var info = document.getElementById('info');
          var view = document.getElementById('view');
          var axis = document.getElementById('axis');
          var segments = JSON.parse(document.getElementById('timeline-axis').textContent).segments;
          var L = +svg.dataset.labelWidth, P = +svg.dataset.plotWidth, A = +svg.dataset.axisHeight;
          var NS = 'http://www.w3.org/2000/svg';
          var plots = svg.querySelectorAll('svg.plot'), zooms = svg.querySelectorAll('g.z');
          var k = 1, v0 = 0, W = P, s = 1, maxZoom = 100000;
          var steps = [1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2,
            0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 43200, 86400,
            172800, 604800, 2592000, 7776000, 31536000, 157680000];
          function fmt(v, d) { return (Math.round(v * Math.pow(10, d)) / Math.pow(10, d)).toFixed(d); }
          function decimals(step) { var d = 0; while (d < 6 && step * Math.pow(10, d) < 1 - 1e-9) d++; return d; }
          function screen(x) { return L + (x - v0) * s; }
          function segment(x) {
            for (var i = 0; i < segments.length - 1; i++) if (x <= segments[i].x1) return segments[i];
            return segments[segments.length - 1];
          }
          function seconds(x) {
            var g = segment(x);
            if (x <= g.x0 || g.x1 <= g.x0) return g.s0;
            return g.s0 + (Math.min(x, g.x1) - g.x0) / (g.x1 - g.x0) * (g.s1 - g.s0);
          }
          function when(x) {
            var g = segment(x), t = seconds(x);
            return segments.length > 1 ? g.label + ' + ' + fmt(t - g.o, 3) + ' s' : fmt(t, 3) + ' s';
          }
          var rightmost = {};
          function el(name, attrs, text) {
            var e = document.createElementNS(NS, name);
            for (var a in attrs) e.setAttribute(a, attrs[a]);
            if (text !== undefined) e.textContent = text;
            axis.appendChild(e);
            if (text === undefined) return true;
            var row = attrs.y, right = attrs.x + e.getComputedTextLength();
            if (rightmost[row] !== undefined && attrs.x < rightmost[row] + 6) { axis.removeChild(e); return false; }
            rightmost[row] = right;
            return true;
          }
          function segmentLabel(g, x, end) {
            var e = document.createElementNS(NS, 'text');
            e.setAttribute('class', 'segment');
            e.setAttribute('x', x);
            e.setAttribute('y', 12);
            e.textContent = g.label;
            axis.appendChild(e);
            if (x + e.getComputedTextLength() > end && g.short) e.textContent = g.short;
            var right = x + e.getComputedTextLength();
            if (rightmost.segment !== undefined && x < rightmost.segment + 6) { axis.removeChild(e); return; }
            rightmost.segment = right;
            var t = document.createElementNS(NS, 'title');
            t.textContent = g.label;
            e.appendChild(t);
          }
          function drawAxis() {
            while (axis.firstChild) axis.removeChild(axis.firstChild);
            rightmost = {};
            var H = svg.height.baseVal.value, right = L + W;
            segments.forEach(function (g, i) {
              var X0 = screen(g.x0), X1 = screen(g.x1);
              if (i > 0) {
                var gx = screen(segments[i - 1].x1);
                if (X0 > L && gx < right) {
                  var a = Math.max(L, gx), b = Math.min(right, X0);
                  el('rect', {'class': 'gap', x: a, y: A - 6, width: Math.max(1, b - a), height: H - A + 6});
                  el('text', {'class': 'axis', x: (a + b) / 2 - 4, y: A - 8}, '\\u2248');
                }
              }
              if (X1 < L || X0 > right) return;
              var span = g.s1 - g.s0, perSecond = span > 0 ? (X1 - X0) / span : 0;
              if (g.label) segmentLabel(g, Math.max(L, X0) + 2, Math.min(X1, right));
              if (perSecond <= 0) return;
              var step = steps[steps.length - 1];
              for (var j = 0; j < steps.length; j++) if (steps[j] * perSecond >= 80) { step = steps[j]; break; }
              var d = decimals(step);
              var sa = g.s0 + (Math.max(X0, L) - X0) / perSecond, sb = g.s0 + (Math.min(X1, right) - X0) / perSecond;
              for (var n = Math.ceil((sa - g.o) / step - 1e-9); g.o + n * step <= sb + 1e-9; n++) {
                var t = g.o + n * step, x = X0 + (t - g.s0) * perSecond;
                if (el('text', {'class': 'axis', x: x + 2, y: A - 14}, fmt(n * step, d) + ' s'))
                  el('line', {'class': 'grid', x1: x, y1: A - 6, x2: x, y2: H});
              }
            });
          }
          function layout() {
            W = Math.max(200, svg.parentNode.clientWidth - L - 12);
            svg.setAttribute('width', L + W + 12);
            k = Math.min(maxZoom, Math.max(1, k));
            v0 = Math.min(P - P / k, Math.max(0, v0));
            s = k * W / P;
            var m = 'matrix(' + s + ' 0 0 1 ' + (-v0 * s) + ' 0)';
            for (var i = 0; i < plots.length; i++) plots[i].setAttribute('width', W);
            for (var j = 0; j < zooms.length; j++) zooms[j].setAttribute('transform', m);
            var a = seconds(v0), b = seconds(v0 + P / k);
            svg.dataset.viewStart = fmt(a, 6);
            svg.dataset.viewEnd = fmt(b, 6);
            view.textContent = 'showing ' + when(v0) + ' \\u2013 ' + when(v0 + P / k) + (k > 1 ? ', zoom \\u00d7' + fmt(k, 1) : '');
            drawAxis();
          }
          function zoomAt(factor, sx) {
            var anchor = v0 + sx / s;
            k = Math.min(maxZoom, Math.max(1, k * factor));
            v0 = anchor - sx * P / (k * W);
            layout();
          }
          function pan(dx) { v0 += dx / s; layout(); }
          function reset() { k = 1; v0 = 0; layout(); }
          svg.addEventListener('wheel', function (e) {
            var sx = e.clientX - svg.getBoundingClientRect().left - L;
            if (sx < 0 || sx > W) return;
            e.preventDefault();
            var unit = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? W : 1;
            if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan((e.deltaX || e.deltaY) * unit);
            else zoomAt(Math.exp(-e.deltaY * unit * 0.0015), sx);
          }, {passive: false});
          var drag = null, dragged = false;
          svg.addEventListener('pointerdown', function (e) {
            var sx = e.clientX - svg.getBoundingClientRect().left - L;
            if (e.button !== 0 || sx < 0 || sx > W) return;
            drag = {x: e.clientX, v0: v0};
            dragged = false;
          });
          window.addEventListener('pointermove', function (e) {
            if (!drag) return;
            var dx = e.clientX - drag.x;
            if (Math.abs(dx) > 3) { dragged = true; svg.classList.add('dragging'); }
            if (dragged) { v0 = drag.v0 - dx / s; layout(); }
          });
          window.addEventListener('pointerup', function () { drag = null; svg.classList.remove('dragging'); });
          document.addEventListener('keydown', function (e) {
            if (e.ctrlKey || e.metaKey || e.altKey) return;
            var handled = true;
            if (e.key === '+' || e.key === '=') zoomAt(2, W / 2);
            else if (e.key === '-' || e.key === '_') zoomAt(0.5, W / 2);
            else if (e.key === 'ArrowLeft') pan(-W / 10);
            else if (e.key === 'ArrowRight') pan(W / 10);
            else if (e.key === '0' || e.key === 'Home') reset();
            else handled = false;
            if (handled) e.preventDefault();
          });
          document.querySelectorAll('[data-zoom]').forEach(function (b) {
            b.addEventListener('click', function () {
              var z = b.dataset.zoom;
              if (z === 'in') zoomAt(2, W / 2); else if (z === 'out') zoomAt(0.5, W / 2); else reset();
            });
          });
          window.addEventListener('resize', layout);
          function title(m) { var t = m.querySelector('title'); return t ? t.textContent : ''; }
          function part(m, first) {
            var t = title(m);
            if (!m.dataset.n) return t;
            var f = t.indexOf('\\nfirst: '), l = t.lastIndexOf('\\nlast: ');
            if (f < 0 || l < f) return t;
            return first ? t.slice(f + 8, l) : t.slice(l + 7);
          }
          function column(m) { return Math.floor(screen(+m.getAttribute('x1')) / 2); }
          function isTick(m) { return m && m.classList && m.classList.contains('tick'); }
          function explain(m) {
            if (!isTick(m)) return title(m);
            var c = column(m), group = [m], p = m.previousElementSibling, q = m.nextElementSibling;
            while (isTick(p) && column(p) === c) { group.unshift(p); p = p.previousElementSibling; }
            while (isTick(q) && column(q) === c) { group.push(q); q = q.nextElementSibling; }
            if (group.length === 1) return title(m);
            var n = 0, counted = 0, countsSightings = false, lo = null, hi = null;
            group.forEach(function (g) {
              n += +(g.dataset.n || 1);
              if (g.dataset.c !== undefined) { countsSightings = true; counted += +g.dataset.c; }
              if (g.dataset.lo !== undefined) {
                lo = lo === null ? +g.dataset.lo : Math.min(lo, +g.dataset.lo);
                hi = hi === null ? +g.dataset.hi : Math.max(hi, +g.dataset.hi);
              }
            });
            var last = group[group.length - 1];
            var head = n + ' at ' + group[0].dataset.t0 + '\\u2013' + last.dataset.t1;
            if (lo !== null) head += ', RSSI ' + lo + '\\u2026' + hi + ' dBm';
            if (countsSightings) head += ', ' + counted + ' counted, ' + (n - counted) + ' not';
            return head + '\\nfirst: ' + part(group[0], true) + '\\nlast: ' + part(last, false);
          }
          var pinned = false;
          document.addEventListener('mouseover', function (e) {
            var mark = e.target.closest && e.target.closest('.m');
            if (mark && !pinned && !drag) info.textContent = explain(mark);
          });
          document.addEventListener('click', function (e) {
            if (dragged) { dragged = false; return; }
            var mark = e.target.closest && e.target.closest('.m');
            pinned = mark !== null;
            if (mark) info.textContent = explain(mark);
          });
          layout();
        })();
        """
}
