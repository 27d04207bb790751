/// The report page's script, inlined into every page. It reads the run's records
/// (`cellhost.trace/1`, exactly as the JSONL trace holds them) from the page's JSON block and
/// renders the timeline virtually, only the rows in view, and an event's details only when it
/// is selected, so a run of many thousands of events opens at once. Fields it does not know are
/// shown as they are, so records that gain fields still show everything they carry.
enum ReportScript {
    static let javaScript = #"""
"use strict";
(function () {
  const run = JSON.parse(document.getElementById("cellhost-run").textContent);
  const $ = (id) => document.getElementById(id);
  const ROW = 28;
  let header = null, end = null;
  const events = [];
  const STOPPED_WORDS = { pluginCrashed: "crash", pluginHung: "hung", pluginLoadFailed: "not loaded", badInput: "bad input", internalError: "stopped" };
  const logsByEvent = new Map();
  const earlyLogs = [];
  for (const r of run.records) {
    if (r.record === "header") header = r;
    else if (r.record === "event") events.push(r);
    else if (r.record === "end") end = r;
    else if (r.record === "log") {
      if (r.event == null) earlyLogs.push(r);
      else { if (!logsByEvent.has(r.event)) logsByEvent.set(r.event, []); logsByEvent.get(r.event).push(r); }
    }
  }
  if (end && end.outcome !== "ok" && end.failedEvent != null && !events.some((e) => e.event === end.failedEvent)) {
    events.push({ record: "event", event: end.failedEvent, summary: "did not finish: " + end.outcome, updates: [], frames: [],
                  stopped: STOPPED_WORDS[end.outcome] || "stopped", line: null });
  }
  const frameFiles = new Map();
  for (const e of events) for (const f of e.frames || []) if (f.file) frameFiles.set(f.index, f.file);
  const pixelWidth = header ? header.viewport[0] * header.scale : 1;
  const pixelHeight = header ? header.viewport[1] * header.scale : 1;

  const KNOWN_EVENT = new Set(["record", "event", "line", "summary", "note", "start", "updates", "frames", "timings", "problems", "stopped"]);
  const KNOWN_UPDATE = new Set(["cell", "type", "cause", "stateBefore", "stateAfter", "changes", "view", "supports", "size", "frame", "damage", "micros", "repaint"]);
  const KNOWN_CHANGE = new Set(["configuration", "property", "old", "new", "reason", "cause", "nilIsTint"]);
  const REASON_WORDS = { restyled: "restyled", locked: "locked", reResolved: "re-resolved", setByEvent: "set by the event", setByHook: "set by the handler" };

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c != null) node.append(c);
    return node;
  }
  const total = (t) => t ? Object.values(t).reduce((a, b) => a + (typeof b === "number" ? b : 0), 0) : 0;
  const ms = (micros) => (micros / 1000).toFixed(2) + " ms";
  const damageOf = (e) => (e.frames || []).reduce((a, f) => a + (f.damagedPixels || 0), 0);
  const area = (px) => px === 0 ? "no damage" : px + " px";
  function display(v) { return v == null ? "nil" : typeof v === "string" ? v : JSON.stringify(v); }
  /// A value with a swatch before every hex colour in it; the hex text stays, so the colour is also read.
  function valueNode(v) {
    const text = display(v);
    const span = el("span", { class: "value" });
    const re = /#([0-9A-Fa-f]{8}|[0-9A-Fa-f]{6})\b/g;
    let last = 0, m;
    while ((m = re.exec(text))) {
      span.append(text.slice(last, m.index));
      const hex = m[1];
      const css = hex.length === 8 ? "#" + hex : "#" + hex + "ff";
      const sw = el("span", { class: "swatch", "aria-hidden": "true" });
      sw.style.setProperty("--c", css);
      span.append(sw, m[0]);
      last = m.index + m[0].length;
    }
    span.append(text.slice(last));
    return span;
  }
  function extras(obj, known) {
    const keys = Object.keys(obj).filter((k) => !known.has(k));
    if (!keys.length) return null;
    return el("div", { class: "extra" }, ...keys.flatMap((k) => [el("span", { text: k + ": " }), valueNode(obj[k]), " "]));
  }
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
  const stateWords = (s) => s && s.length ? s.join("+") : "normal";

  // Filters: an event is listed when one of its cells matches the cell filter and one of that
  // cell's changes matches the property and reason filters.
  const filter = { cell: "", property: "", reason: "" };
  const filtering = () => filter.cell || filter.property || filter.reason;
  const changeMatches = (c) => (!filter.property || c.property.includes(filter.property)) && (!filter.reason || c.reason === filter.reason);
  const updateMatches = (u) => (!filter.cell || u.cell === filter.cell) && (!filter.property && !filter.reason || (u.changes || []).some(changeMatches));
  let visible = events.map((_, i) => i);
  function applyFilters() {
    visible = filtering() ? events.map((_, i) => i).filter((i) => (events[i].updates || []).some(updateMatches)) : events.map((_, i) => i);
    $("filter-count").textContent = filtering() ? visible.length + " of " + events.length + " events" : events.length + " events";
    $("timeline-space").style.height = visible.length * ROW + "px";
    renderRows(true);
    if (!visible.includes(selected) && visible.length) select(visible[0], false); else renderDetail();
  }
  function fillFilterChoices() {
    const cells = new Set(), props = new Set(), reasons = new Set();
    for (const e of events) for (const u of e.updates || []) { cells.add(u.cell); for (const c of u.changes || []) { props.add(c.property); reasons.add(c.reason); } }
    const cellSelect = $("filter-cell");
    for (const c of [...cells].sort()) cellSelect.append(el("option", { value: c, text: c }));
    const list = $("property-names");
    for (const p of [...props].sort()) list.append(el("option", { value: p }));
    const reasonSelect = $("filter-reason");
    for (const r of [...reasons].sort()) reasonSelect.append(el("option", { value: r, text: REASON_WORDS[r] || r }));
  }

  // The timeline: a tall space with only the rows in view (and a few around them) in the DOM.
  const timeline = $("timeline");
  let selected = 0;
  const rowId = (i) => "event-row-" + i;
  function rowFor(i) {
    const e = events[i];
    const problems = (e.problems || []).length, logs = (logsByEvent.get(e.event) || []).length;
    const cls = ["row", problems ? "problem" : "", logs ? "log" : "", e.stopped ? "crash" : ""].join(" ");
    const row = el("div", { class: cls, role: "option", id: rowId(i), "aria-selected": i === selected ? "true" : "false",
                            "data-index": i, "data-event": e.event },
      el("span", { class: "summary" }, el("span", { class: "num", text: "#" + e.event }), e.summary,
         problems ? el("span", { class: "badge problem", text: problems + " problem" + (problems > 1 ? "s" : "") }) : null,
         logs ? el("span", { class: "badge log", text: logs + " log" + (logs > 1 ? "s" : "") }) : null,
         e.stopped ? el("span", { class: "badge problem", text: e.stopped }) : null),
      el("span", { class: "time", text: e.stopped ? "" : ms(total(e.timings)) }),
      el("span", { class: "area", text: e.stopped ? "" : area(damageOf(e)) }));
    return row;
  }
  let renderedRange = [-1, -1];
  function renderRows(force) {
    const first = Math.max(0, Math.floor(timeline.scrollTop / ROW) - 10);
    const last = Math.min(visible.length, Math.ceil((timeline.scrollTop + timeline.clientHeight) / ROW) + 10);
    if (!force && first === renderedRange[0] && last === renderedRange[1]) return;
    renderedRange = [first, last];
    const space = $("timeline-space");
    const rows = [];
    for (let p = first; p < last; p++) {
      const i = visible[p];
      const row = rowFor(i);
      row.style.top = p * ROW + "px";
      rows.push(row);
    }
    space.replaceChildren(...rows);
    timeline.setAttribute("aria-activedescendant", rowId(selected));
  }
  timeline.addEventListener("scroll", () => renderRows(false));
  timeline.addEventListener("click", (ev) => {
    const row = ev.target.closest(".row");
    if (row) select(Number(row.dataset.index), true);
  });
  let addressTimer = 0;
  function select(i, scroll) {
    const old = document.getElementById(rowId(selected));
    if (old) old.setAttribute("aria-selected", "false");
    selected = i;
    const p = visible.indexOf(i);
    if (scroll && p >= 0) {
      if (p * ROW < timeline.scrollTop) timeline.scrollTop = p * ROW;
      else if ((p + 1) * ROW > timeline.scrollTop + timeline.clientHeight) timeline.scrollTop = (p + 1) * ROW - timeline.clientHeight;
    }
    // Only the rows that come into view are built; the others just change their selection.
    renderRows(false);
    const row = document.getElementById(rowId(i));
    if (row) row.setAttribute("aria-selected", "true");
    timeline.setAttribute("aria-activedescendant", rowId(i));
    renderDetail();
    // The address keeps the event once stepping pauses (browsers limit how often it may change).
    clearTimeout(addressTimer);
    addressTimer = setTimeout(() => history.replaceState(null, "", "#event=" + events[i].event), 250);
  }
  function step(delta) {
    if (!visible.length) return;
    const p = visible.indexOf(selected);
    const next = p < 0 ? 0 : Math.max(0, Math.min(visible.length - 1, p + delta));
    select(visible[next], true);
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA") && t.type !== "checkbox") return;
    const moves = { ArrowRight: 1, ArrowDown: 1, j: 1, ArrowLeft: -1, ArrowUp: -1, k: -1, PageDown: 20, PageUp: -20 };
    if (ev.key in moves) {
      if ((ev.key === "ArrowUp" || ev.key === "ArrowDown" || ev.key.startsWith("Page")) && t !== timeline) return;
      step(moves[ev.key]); ev.preventDefault();
    } else if (ev.key === "Home" && t === timeline) { step(-visible.length); ev.preventDefault(); }
    else if (ev.key === "End" && t === timeline) { step(visible.length); ev.preventDefault(); }
  });

  // The details of the selected event, built when it is selected.
  function frameFigure(caption, index, damage) {
    const file = frameFiles.get(index);
    if (!file) return el("figure", {}, el("figcaption", { text: caption + ": no frame written" }));
    const shot = el("a", { class: "shot", href: run.frames + file, title: "open the frame at full size" },
                    el("img", { src: run.frames + file, alt: caption + " (frame " + index + ")" }));
    for (const d of damage || []) {
      const r = el("div", { class: "damage-rect", "aria-hidden": "true" });
      r.style.left = (100 * d[0] / pixelWidth) + "%"; r.style.top = (100 * d[1] / pixelHeight) + "%";
      r.style.width = (100 * d[2] / pixelWidth) + "%"; r.style.height = (100 * d[3] / pixelHeight) + "%";
      shot.append(r);
    }
    return el("figure", {}, shot, el("figcaption", { text: caption + " — frame " + index + " (" + file + ")" }));
  }
  function swipeFigure(before, after) {
    const a = frameFiles.get(before), b = frameFiles.get(after);
    if (!a || !b) return null;
    const over = el("div", { class: "over" }, el("img", { src: run.frames + b, alt: "" }));
    const slider = el("input", { type: "range", min: 0, max: 100, value: 50, "aria-label": "Swipe between the frame before and this frame" });
    const clip = () => { over.style.clipPath = "inset(0 " + (100 - slider.value) + "% 0 0)"; };
    slider.addEventListener("input", clip); clip();
    return el("figure", {}, el("div", { class: "swipe" }, el("img", { src: run.frames + a, alt: "frame " + before + " under frame " + after }), over),
              el("div", {}, slider), el("figcaption", { text: "swipe: frame " + before + " (right) → frame " + after + " (left)" }));
  }
  function changeRow(c) {
    const tinted = (v) => v === "nil" && c.nilIsTint ? "nil (tint)" : v;
    const reason = (REASON_WORDS[c.reason] || c.reason) + (c.cause ? ": " + c.cause : "");
    return el("tr", { class: "change" },
      el("td", { class: "value", text: c.configuration + "." + c.property }),
      el("td", {}, c.old == null ? null : valueNode(tinted(c.old)), c.old == null ? null : " → ", valueNode(tinted(c.new))),
      el("td", { class: "reason", text: reason }),
      el("td", {}, extras(c, KNOWN_CHANGE)));
  }
  function cellBlock(u) {
    const changes = (u.changes || []).filter((c) => !filter.property && !filter.reason || changeMatches(c));
    const fact = (name, value) => el("span", { class: "fact" }, el("span", { class: "muted", text: name + " " }), value);
    const facts = el("p", { class: "facts" },
      fact("state", stateWords(u.stateBefore) + " → " + stateWords(u.stateAfter)),
      fact("view", u.view + (u.supports == null ? "" : " (supports: " + (u.supports ? "yes" : "no") + ")")),
      fact("size", u.size ? u.size[0] + "×" + u.size[1] : ""),
      fact("damage", u.damage ? u.damage[2] + "×" + u.damage[3] + " at " + u.damage[0] + "," + u.damage[1] : "none"),
      fact("time", ms(u.micros || 0)),
      fact("cause", u.cause),
      u.repaint ? fact("repaint", u.repaint) : null);
    const table = changes.length ? el("table", { class: "changes" },
      el("tr", {}, el("th", { text: "property" }), el("th", { text: "old → new" }), el("th", { text: "reason" }), el("th", { text: "" })),
      ...changes.map(changeRow)) : el("p", { class: "muted", text: "no property changed" });
    return el("section", { class: "cell", "aria-label": "cell " + u.cell },
      el("h3", { text: u.cell + " — " + u.type }), facts, extras(u, KNOWN_UPDATE), table);
  }
  function renderDetail() {
    const detail = $("detail-body");
    const e = events[selected];
    if (!e) { detail.replaceChildren(el("p", { text: "No events." })); return; }
    const parts = [el("h2", { id: "detail-title", text: "#" + e.event + " " + e.summary })];
    const facts = [];
    if (e.line) facts.push("line " + e.line);
    if (e.start != null) facts.push("at " + ms(e.start));
    if (e.timings) facts.push("took " + ms(total(e.timings)));
    if (!e.stopped) facts.push(damageOf(e) ? "damaged " + area(damageOf(e)) : "no damage");
    parts.push(el("p", { class: "muted", text: facts.join(" · ") }));
    if (e.note) parts.push(el("p", { text: "note: " + e.note }));
    for (const p of e.problems || []) parts.push(el("div", { class: "banner problem", role: "note", text: "problem: " + p }));
    for (const l of logsByEvent.get(e.event) || []) {
      parts.push(el("div", { class: "banner log", role: "note",
        text: l.plugin + " " + l.level + ": " + l.message + (l.notShown ? " (" + l.notShown + " more not shown)" : "") }));
    }
    if (e.stopped && end) parts.push(el("div", { class: "banner problem", role: "alert", text: end.outcome + ": " + (end.message || "") }));
    const more = extras(e, KNOWN_EVENT);
    if (more) parts.push(more);
    const frames = e.frames || [];
    if (frames.length) {
      const lastFrame = frames[frames.length - 1];
      const before = frames[0].index - 1;
      const damage = frames.flatMap((f) => f.damage || []);
      const compare = $("compare").value;
      const row = el("div", { class: "frames" + ($("show-damage").checked ? "" : " hide-damage"), id: "frames" });
      if (compare === "swipe" && before > 0) row.append(swipeFigure(before, lastFrame.index) || frameFigure("this event", lastFrame.index, damage));
      else {
        if (before > 0) row.append(frameFigure("before", before, []));
        row.append(frameFigure("this event", lastFrame.index, damage));
      }
      parts.push(row);
      if (frames.length > 1) parts.push(el("p", { class: "muted", text: frames.length + " frames: " + frames.map((f) => f.index + (f.progress != null ? " (" + Math.round(f.progress * 100) + "%)" : "")).join(", ") }));
    } else if (!e.stopped) parts.push(el("p", { class: "muted", text: "no frame: nothing on screen changed" }));
    const updates = (e.updates || []).filter((u) => !filtering() || updateMatches(u));
    parts.push(el("h2", { text: updates.length + " cell" + (updates.length === 1 ? "" : "s") + " updated" + (filtering() ? " (filtered)" : "") }));
    for (const u of updates) parts.push(cellBlock(u));
    detail.replaceChildren(...parts);
  }

  // The page's head: the run, how it ended, the filters.
  $("source").textContent = header ? header.source : "(no header)";
  const meta = [];
  if (header) meta.push(header.appearance, header.viewport.join("×") + " @" + header.scale + "x", plural(header.items, "item"));
  if (end) meta.push(plural(end.events, "event") + ", " + plural(end.frames, "frame"), "ended: " + end.outcome);
  $("run-meta").textContent = meta.join(" · ");
  if (run.chromeTrace) { const a = $("chrome-trace"); a.href = run.chromeTrace; a.hidden = false; }
  const banners = [];
  if (end && end.outcome !== "ok") banners.push(el("div", { class: "banner problem", role: "alert", text: "The run ended with " + end.outcome + (end.failedEvent != null ? " at event #" + end.failedEvent : "") + (end.message ? ": " + end.message : "") }));
  for (const l of earlyLogs) banners.push(el("div", { class: "banner log", role: "note", text: l.plugin + " " + l.level + ": " + l.message }));
  $("run-banner").replaceChildren(...banners);
  fillFilterChoices();
  $("filter-cell").addEventListener("change", (ev) => { filter.cell = ev.target.value; applyFilters(); });
  $("filter-property").addEventListener("input", (ev) => { filter.property = ev.target.value.trim(); applyFilters(); });
  $("filter-reason").addEventListener("change", (ev) => { filter.reason = ev.target.value; applyFilters(); });
  $("show-damage").addEventListener("change", (ev) => { const f = $("frames"); if (f) f.classList.toggle("hide-damage", !ev.target.checked); });
  $("compare").addEventListener("change", renderDetail);
  const wanted = /event=(\d+)/.exec(location.hash);
  const start = wanted ? Math.max(0, events.findIndex((e) => e.event === Number(wanted[1]))) : 0;
  selected = start;
  applyFilters();
  select(start, true);
  window.cellhostReport = { events: events.length, select: (n) => { const i = events.findIndex((e) => e.event === n); if (i >= 0) select(i, true); return i >= 0; }, selectedEvent: () => events[selected] && events[selected].event };
  window.cellhostReport.readyAt = performance.now();
  document.documentElement.dataset.ready = "true";

  // Served by `cellhost preview`: the server says when a new run is ready (reload) or a rebuild failed.
  const live = /^\/run\/(\d+)\//.exec(location.pathname);
  if (live && window.EventSource) {
    const source = new EventSource("/live");
    const showFailure = (message) => { $("live-banner").replaceChildren(message ? el("div", { class: "banner problem", role: "alert", text: message }) : ""); };
    source.addEventListener("status", (ev) => {
      const s = JSON.parse(ev.data);
      if (s.generation != null && String(s.generation) !== live[1]) { location.replace("/run/" + s.generation + "/report.html" + location.hash); return; }
      showFailure(s.failure ? "The last change did not run; showing the last good run.\n" + s.failure : "");
    });
  }
})();
"""#
}
