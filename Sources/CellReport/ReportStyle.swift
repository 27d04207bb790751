/// The report page's style sheet, inlined into every page so it works offline from the file
/// system. Colours come from custom properties with a dark set under `prefers-color-scheme`, so
/// the page follows the system's appearance; focus is always drawn (`:focus-visible`).
enum ReportStyle {
    static let css = #"""
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1c1c1e; --muted: #6c6c70; --line: #d1d1d6; --panel: #f2f2f7;
  --accent: #0a60d0; --selected: #dbe8fb; --problem: #b3261e; --problem-bg: #fde7e4; --log: #7a5200; --log-bg: #fff3d6;
  --damage: rgba(255, 45, 85, 0.22); --damage-edge: #ff2d55; --focus: #0a60d0; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1c1c1e; --fg: #f2f2f7; --muted: #a1a1a6; --line: #3a3a3c; --panel: #2c2c2e; --accent: #64a8ff;
    --selected: #203a5c; --problem: #ff8a80; --problem-bg: #4a1c18; --log: #ffd27a; --log-bg: #3d3114; --focus: #64a8ff; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, "DejaVu Sans", sans-serif; background: var(--bg); color: var(--fg);
  display: grid; grid-template-rows: auto 1fr; height: 100vh; }
header { padding: 8px 12px; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
header h1 { font-size: 16px; margin: 0; }
header .meta { color: var(--muted); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
.filters { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.filters label { display: flex; gap: 4px; align-items: center; }
input, select, button { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 2px 6px; }
main { display: grid; grid-template-columns: minmax(280px, 36%) 1fr; min-height: 0; }
#timeline { overflow-y: auto; position: relative; border-right: 1px solid var(--line); min-height: 0; }
#timeline-space { position: relative; }
.row { position: absolute; left: 0; right: 0; height: 28px; display: grid; grid-template-columns: 1fr auto auto;
  gap: 8px; align-items: center; padding: 0 8px; border-bottom: 1px solid var(--line); cursor: pointer; white-space: nowrap; }
.row .summary { overflow: hidden; text-overflow: ellipsis; }
.row .num { color: var(--muted); margin-right: 4px; }
.row .time, .row .area { color: var(--muted); font-variant-numeric: tabular-nums; font-size: 12px; }
.row[aria-selected="true"] { background: var(--selected); }
.row.problem { box-shadow: inset 4px 0 var(--problem); }
.row.log { box-shadow: inset 4px 0 var(--log); }
.row.crash { background: var(--problem-bg); }
.badge { font-size: 11px; border-radius: 8px; padding: 0 6px; margin-left: 4px; }
.badge.problem, .banner.problem { background: var(--problem-bg); color: var(--problem); }
.badge.log, .banner.log { background: var(--log-bg); color: var(--log); }
#detail { overflow-y: auto; padding: 12px 16px; min-height: 0; }
#detail h2 { font-size: 16px; margin: 0 0 4px; }
.banner { padding: 6px 10px; border-radius: 6px; margin: 6px 0; white-space: pre-wrap; }
#run-banner:empty, #live-banner:empty { display: none; }
.frames { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-start; margin: 8px 0; }
figure { margin: 0; width: min(100%, 320px); }
figcaption { color: var(--muted); font-size: 12px; }
.shot, .swipe { position: relative; display: block; line-height: 0; border: 1px solid var(--line); }
.shot img, .swipe img { width: 100%; height: auto; display: block; }
.damage-rect { position: absolute; background: var(--damage); outline: 1px solid var(--damage-edge); pointer-events: none; }
.hide-damage .damage-rect { display: none; }
.swipe .over { position: absolute; inset: 0; }
.swipe input { width: 100%; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { text-align: left; padding: 2px 8px 2px 0; vertical-align: top; }
th { color: var(--muted); font-weight: normal; font-size: 12px; }
.cell { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
.cell h3 { font-size: 14px; margin: 0 0 4px; }
.facts { margin: 0 0 4px; display: flex; flex-wrap: wrap; gap: 2px 16px; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid var(--muted); border-radius: 2px; vertical-align: -1px; margin: 0 3px 0 1px;
  background-image: linear-gradient(var(--c), var(--c)), repeating-conic-gradient(#999 0 25%, #fff 0 50%); background-size: auto, 6px 6px; }
.value { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
.reason { color: var(--muted); }
.extra { color: var(--muted); font-size: 12px; }
.muted { color: var(--muted); }
"""#
}
