/// The report page around the run's data: landmarks and labels for keyboard and screen-reader
/// use, the style and the script inline (no network: the page works opened from the file
/// system), and the records in a JSON block the script reads.
enum ReportPage {
    static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>cellhost run report</title>
        <style>
        \(ReportStyle.css)
        </style>
        </head>
        <body>
        <header>
        <h1>cellhost run: <span id="source"></span></h1>
        <span class="meta" id="run-meta"></span>
        <a id="chrome-trace" hidden>Chrome trace (open in Perfetto)</a>
        <div class="filters" role="search" aria-label="Filter events">
        <label>cell <select id="filter-cell"><option value="">all</option></select></label>
        <label>property <input id="filter-property" list="property-names" size="18" placeholder="any"></label>
        <datalist id="property-names"></datalist>
        <label>reason <select id="filter-reason"><option value="">any</option></select></label>
        <span id="filter-count" class="muted" aria-live="polite"></span>
        <label><input type="checkbox" id="show-damage" checked> damage overlay</label>
        <label>compare <select id="compare"><option value="side">side by side</option><option value="swipe">swipe</option></select></label>
        </div>
        </header>
        <main>
        <div id="timeline" role="listbox" tabindex="0" aria-label="Events (←/→ or j/k step, click selects)">
        <div id="timeline-space"></div>
        </div>
        <section id="detail" aria-labelledby="detail-title">
        <div id="live-banner"></div>
        <div id="run-banner"></div>
        <div id="detail-body"></div>
        </section>
        </main>
        <script type="application/json" id="cellhost-run">
        """

    static let tail = """
        </script>
        <script>
        \(ReportScript.javaScript)
        </script>
        </body>
        </html>

        """

    /// JSON made safe inside a `<script>` element: every `<` (only ever inside a JSON string)
    /// becomes `\u003c`, so no text a plugin logs can close the element or open a comment.
    static func scriptSafe(_ json: String) -> String {
        guard json.utf8.contains(UInt8(ascii: "<")) else { return json }
        return json.split(separator: "<", omittingEmptySubsequences: false).joined(separator: "\\u003c")
    }
}
