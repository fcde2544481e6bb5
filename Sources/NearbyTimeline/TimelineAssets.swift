/// The report's style sheet and script, inlined in every file (no network, no fonts to
/// fetch: the system's sans-serif and monospace faces).
enum TimelineAssets {
    static let css = """
        body{font:13px system-ui,sans-serif;margin:16px;color:#1d2430;background:#fff}
        h1{font-size:18px;margin:0 0 4px}
        p.note{margin:2px 0;color:#4a5363}
        .legend span{display:inline-block;margin-right:14px}
        .legend i{display:inline-block;width:12px;height:10px;margin-right:4px;vertical-align:middle}
        svg{display:block;margin-top:8px}
        svg text{font-size:11px;fill:#1d2430}
        text.group{font-weight:600;font-size:12px}
        text.axis{fill:#4a5363}
        line.grid{stroke:#e3e6ea}
        rect.lane{fill:#f6f7f9}
        .found{fill:#1f77b4;background:#1f77b4}
        .found.open{fill:#6baed6;background:#6baed6}
        .active{fill:#dbe9f6;background:#dbe9f6}
        .counted{fill:#2ca02c;background:#2ca02c}
        .not-counted{fill:#b0b6bf;background:#b0b6bf}
        .seen{fill:#8c6d31;background:#8c6d31}
        .state{fill:#fde0c5;background:#fde0c5}
        .expiry{fill:#9467bd;background:#9467bd}
        .error{fill:#d62728;background:#d62728}
        .event{fill:#17becf;background:#17becf}
        .m:hover{opacity:.7;cursor:pointer}
        #info{position:sticky;bottom:0;background:#fffbe6;border:1px solid #e6d9a2;padding:6px 8px;
        font:12px ui-monospace,monospace;white-space:pre-wrap;min-height:2.6em}
        """

    /// Hovering a mark shows its explanation (its `title`) in the panel; a click pins it there
    /// until the next click.
    static let script = """
        (function () {
          var info = document.getElementById('info');
          var pinned = false;
          function show(mark) {
            var title = mark.querySelector('title');
            info.textContent = title ? title.textContent : '';
          }
          document.addEventListener('mouseover', function (e) {
            var mark = e.target.closest('.m');
            if (mark && !pinned) show(mark);
          });
          document.addEventListener('click', function (e) {
            var mark = e.target.closest('.m');
            pinned = mark !== null;
            if (mark) show(mark);
          });
        })();
        """
}
