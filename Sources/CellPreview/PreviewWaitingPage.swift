/// What the preview serves before its first good run: why the run failed, and a script that
/// goes to the run's report as soon as one succeeds.
enum PreviewWaitingPage {
    static let html = #"""
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cellhost preview</title>
<style>:root { color-scheme: light dark; } body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; }
pre { white-space: pre-wrap; padding: 8px; border-radius: 6px; background: rgba(255, 59, 48, 0.15); }</style></head>
<body><h1>cellhost preview</h1><p>No good run yet; the page updates when the plugin or the stream changes.</p>
<pre id="failure" role="alert"></pre>
<script>
const source = new EventSource("/live");
source.addEventListener("status", (ev) => {
  const s = JSON.parse(ev.data);
  if (s.generation != null) location.replace("/run/" + s.generation + "/report.html");
  document.getElementById("failure").textContent = s.failure || "";
});
</script></body></html>
"""#
}
