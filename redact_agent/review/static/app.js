// The review page: every change goes to the server at once (which logs it); what is shown is
// always the server's state read back. Values are shown with textContent, never as HTML.
"use strict";

const TOKEN = document.querySelector('meta[name="review-token"]').content;
const $ = (id) => document.getElementById(id);
const state = { pages: [], types: [], index: 0, page: null, selected: null, drawing: false, hits: [] };

async function api(method, path, body) {
  const headers = { "X-Review-Token": TOKEN };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text) { $("status").textContent = text; }

async function act(change) {
  try {
    await api("POST", "/api/act", { page: state.page.id, ...change });
  } catch (error) {
    say(error.message);
  }
}

async function loadList() {
  const data = await api("GET", "/api/pages");
  state.pages = data.pages;
  state.types = data.types;
  const list = $("page-list");
  list.replaceChildren();
  state.pages.forEach((p, i) => {
    const li = document.createElement("li");
    li.className = (i === state.index ? "current " : "") + p.state;
    li.dataset.page = p.id;
    li.textContent = p.id;
    const counts = document.createElement("span");
    counts.className = "counts";
    const groups = Object.entries(p.groups).map(([g, n]) => `${g} ${n}`).join(", ") || "no boxes";
    counts.textContent = `${groups}; residual ${p.residual}`;
    li.append(counts);
    li.onclick = () => show(i);
    list.append(li);
  });
}

function fillTypes() {
  for (const id of ["type-filter", "draw-type"]) {
    const select = $(id);
    select.replaceChildren(...state.types.map((t) => new Option(t.name, t.name)));
  }
  $("draw-type").value = "PERSON_NAME";
}

async function show(index) {
  state.index = Math.max(0, Math.min(index, state.pages.length - 1));
  const id = state.pages[state.index].id;
  state.hits = [];
  $("redact-hits").disabled = true;
  const image = $("page-image");
  const loaded = new Promise((resolve) => { image.onload = resolve; });
  image.src = `/api/image?id=${encodeURIComponent(id)}&token=${encodeURIComponent(TOKEN)}`;
  await loaded;
  await refresh();
}

async function refresh() {
  const id = state.pages[state.index].id;
  state.page = await api("GET", `/api/page?id=${encodeURIComponent(id)}`);
  $("page-name").textContent = `${id} (${state.index + 1} of ${state.pages.length})`;
  await loadList();
  draw();
}

function scale() { return $("page-image").clientWidth / state.page.width; }

function place(element, bbox) {
  const s = scale();
  element.style.left = `${bbox[0] * s}px`;
  element.style.top = `${bbox[1] * s}px`;
  element.style.width = `${(bbox[2] - bbox[0]) * s}px`;
  element.style.height = `${(bbox[3] - bbox[1]) * s}px`;
}

function draw() {
  const overlay = $("overlay");
  const image = $("page-image");
  overlay.style.width = `${image.clientWidth}px`;
  overlay.style.height = `${image.clientHeight}px`;
  overlay.replaceChildren();
  for (const box of state.page.boxes) {
    const div = document.createElement("div");
    div.className = `box ${box.group} ${box.state}` + (box.id === state.selected ? " selected" : "");
    div.dataset.box = box.id;
    div.dataset.type = box.type;
    place(div, box.bbox);
    div.onmouseenter = (e) => tip(e, `${box.type}: ${box.value ?? "(no value)"} [${box.state}]`);
    div.onmousemove = (e) => tip(e);
    div.onmouseleave = () => { $("tip").hidden = true; };
    div.onmousedown = (e) => startMove(e, box, div);
    const handle = document.createElement("div");
    handle.className = "handle";
    handle.onmousedown = (e) => startResize(e, box, div);
    div.append(handle);
    overlay.append(div);
  }
  for (const hit of state.hits.filter((h) => h.page === state.page.id)) {
    const div = document.createElement("div");
    div.className = "hit";
    place(div, hit.bbox);
    overlay.append(div);
  }
}

function tip(event, text) {
  const box = $("tip");
  if (text !== undefined) box.textContent = text;
  box.hidden = false;
  box.style.left = `${event.clientX + 12}px`;
  box.style.top = `${event.clientY + 12}px`;
}

function pagePoint(event) {
  const rect = $("overlay").getBoundingClientRect();
  const s = scale();
  return [(event.clientX - rect.left) / s, (event.clientY - rect.top) / s];
}

function drag(onMove, onUp) {
  const move = (e) => onMove(e);
  const up = (e) => {
    window.removeEventListener("mousemove", move);
    window.removeEventListener("mouseup", up);
    onUp(e);
  };
  window.addEventListener("mousemove", move);
  window.addEventListener("mouseup", up);
}

function startMove(event, box, div) {
  if (state.drawing || event.target.classList.contains("handle")) return;
  event.preventDefault();
  event.stopPropagation();
  state.selected = box.id;
  const start = pagePoint(event);
  let bbox = box.bbox;
  draw();
  const moved = $("overlay").querySelector(`[data-box="${box.id}"]`);
  drag((e) => {
    const [x, y] = pagePoint(e);
    const dx = x - start[0], dy = y - start[1];
    bbox = [box.bbox[0] + dx, box.bbox[1] + dy, box.bbox[2] + dx, box.bbox[3] + dy];
    place(moved, bbox);
  }, async (e) => {
    const [x, y] = pagePoint(e);
    if (Math.abs(x - start[0]) + Math.abs(y - start[1]) > 2) {
      await act({ action: "move", box: box.id, bbox });
      await refresh();
    }
  });
}

function startResize(event, box, div) {
  event.preventDefault();
  event.stopPropagation();
  state.selected = box.id;
  let bbox = box.bbox;
  drag((e) => {
    const [x, y] = pagePoint(e);
    bbox = [box.bbox[0], box.bbox[1], Math.max(box.bbox[0] + 1, x), Math.max(box.bbox[1] + 1, y)];
    place(div, bbox);
  }, async () => {
    await act({ action: "move", box: box.id, bbox });
    await refresh();
  });
}

function startDraw(event) {
  if (!state.drawing) return;
  event.preventDefault();
  const start = pagePoint(event);
  const sketch = document.createElement("div");
  sketch.className = "sketch";
  $("overlay").append(sketch);
  let bbox = [...start, ...start];
  drag((e) => {
    const [x, y] = pagePoint(e);
    bbox = [Math.min(start[0], x), Math.min(start[1], y), Math.max(start[0], x), Math.max(start[1], y)];
    place(sketch, bbox);
  }, async () => {
    sketch.remove();
    if (bbox[2] - bbox[0] >= 2 && bbox[3] - bbox[1] >= 2) {
      await act({ action: "add", bbox, type: $("draw-type").value, origin: "drawn" });
      await refresh();
    }
  });
}

function toggleDraw(on) {
  state.drawing = on ?? !state.drawing;
  $("draw").classList.toggle("active", state.drawing);
  $("overlay").classList.toggle("drawing", state.drawing);
}

async function decideAll(action, type) {
  for (const box of state.page.boxes) {
    if (type === undefined || box.type === type) await act({ action, box: box.id });
  }
  await refresh();
}

async function decideSelected(action) {
  if (!state.selected) return say("select a box first (click it)");
  await act({ action, box: state.selected });
  await refresh();
}

async function search() {
  const pattern = $("pattern").value;
  const body = { pattern, regex: $("regex").checked, page: $("every-page").checked ? null : state.page.id };
  say("searching…");
  try {
    state.hits = (await api("POST", "/api/search", body)).hits;
  } catch (error) {
    return say(error.message);
  }
  const pages = new Set(state.hits.map((h) => h.page)).size;
  say(`${state.hits.length} hits for “${pattern}” on ${pages} pages`);
  $("redact-hits").disabled = state.hits.length === 0;
  draw();
}

async function redactHits() {
  for (const hit of state.hits) {
    await api("POST", "/api/act", { page: hit.page, action: "add", bbox: hit.bbox, type: $("draw-type").value,
                                    origin: "search", value: hit.text });
  }
  say(`${state.hits.length} hits redacted as ${$("draw-type").value}`);
  state.hits = [];
  $("redact-hits").disabled = true;
  await refresh();
}

async function apply() {
  say("applying: writing the redacted pages and reading them again…");
  let result;
  try {
    result = await api("POST", "/api/apply", {});
  } catch (error) {
    return say(error.message);
  }
  const lines = Object.entries(result.pages).map(([id, p]) => {
    const read = p.residual.map((r) => `${r.type} “${r.value ?? ""}”`).join(", ");
    return `${id}: ${p.kept} boxes written; ${read ? "still reads " + read : "nothing still read"}`;
  });
  say(lines.join("\n"));
  $("status").dataset.applied = "yes";
  await refresh();
}

$("prev").onclick = () => show(state.index - 1);
$("next").onclick = () => show(state.index + 1);
$("accept-page").onclick = () => decideAll("accept");
$("reject-page").onclick = () => decideAll("reject");
$("accept-type").onclick = () => decideAll("accept", $("type-filter").value);
$("reject-type").onclick = () => decideAll("reject", $("type-filter").value);
$("draw").onclick = () => toggleDraw();
$("undo").onclick = async () => { await act({ action: "undo" }); await refresh(); };
$("search").onclick = search;
$("redact-hits").onclick = redactHits;
$("apply").onclick = apply;
$("overlay").onmousedown = startDraw;
window.onresize = () => state.page && draw();
document.addEventListener("keydown", async (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const keys = { n: () => show(state.index + 1), p: () => show(state.index - 1), a: () => decideSelected("accept"),
                 r: () => decideSelected("reject"), Delete: () => decideSelected("reject"), d: () => toggleDraw(),
                 u: async () => { await act({ action: "undo" }); await refresh(); } };
  if (keys[e.key]) { e.preventDefault(); await keys[e.key](); }
});

(async () => {
  await loadList();
  fillTypes();
  await show(0);
  document.body.dataset.ready = "yes";
})();
