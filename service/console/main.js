// The referee console: the rules in force, the panels, the card picker, and
// the whole state in the URL (a permalink that reproduces the ruling).

import * as api from "./api.js";
import { RANKS, SUITS, SUIT_SYMBOL, allCards, cardFace, suitName } from "./cards.js";
import { lang, preferredLanguage, setWords, t } from "./i18n.js";
import { auditPanel, kittyPanel, settlePanel, throwPanel, trickPanel } from "./panels.js";
import {
  h, onTargetChange, pickerTarget, refreshFields, retranslate, setSeatName, showError, translated,
} from "./ui.js";

const $ = (sel) => document.querySelector(sel);

let catalog = null; // {defaultName, presets, model}
const overrides = {};
let lastRuling = null; // {tab, text, at}

// --- the rules in force ---------------------------------------------------------

function currentPreset() {
  return catalog.presets.find((p) => p.name === $("#preset").value) || catalog.presets[0];
}

/** What every request needs: preset, overrides, trump (read by api.js). */
function setup() {
  const p = currentPreset();
  return {
    preset: p.name,
    presetOptions: p.options,
    presets: catalog.presets,
    overrides: { ...overrides },
    level: $("#trump-level").value,
    suit: $("#trump-suit").value || null,
  };
}

function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function levelTableNames() {
  const names = [];
  for (const p of catalog.presets) {
    const name = p.options.level_table && p.options.level_table.name;
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** One option's control: its value from the preset, changeable (an override). */
function optionControl(name, spec, value) {
  const id = `opt-${name}`;
  let input;
  let read;
  let write;
  if (spec.kind === "bool") {
    input = h("input", { id, type: "checkbox" });
    read = () => input.checked;
    write = (v) => { input.checked = Boolean(v); };
  } else if (spec.kind === "choice" || spec.kind === "level_table") {
    const choices = spec.kind === "choice" ? spec.choices : levelTableNames();
    input = h("select", { id }, choices.map((c) => h("option", { value: c, text: c })));
    read = () => input.value;
    write = (v) => { input.value = typeof v === "object" && v ? v.name : v; };
  } else if (spec.kind === "int") {
    input = h("input", { id, type: "number", min: spec.minimum ?? undefined, max: spec.maximum ?? undefined });
    read = () => (input.value.trim() === "" ? null : Number(input.value));
    write = (v) => { input.value = v === null || v === undefined ? "" : String(v); };
  } else { // ranks
    input = h("input", { id, type: "text", placeholder: "2, 10", autocomplete: "off" });
    read = () => input.value.split(/[\s,]+/).filter(Boolean).map((r) => r.toUpperCase());
    write = (v) => { input.value = (v || []).join(", "); };
  }
  const mark = h("span", { class: "changed-mark", hidden: true, tr: () => t("changed") });
  const reset = h("button", { type: "button", class: "small", hidden: true, tr: () => t("reset") });
  const presetValue = () => {
    const v = currentPreset().options[name];
    return spec.kind === "level_table" && v && typeof v === "object" ? v.name : v;
  };
  const sync = () => {
    const changed = name in overrides;
    mark.hidden = !changed;
    reset.hidden = !changed;
    row.classList.toggle("overridden", changed);
    $("#options-count").textContent = t("options", { n: Object.keys(overrides).length });
  };
  input.addEventListener("change", () => {
    const v = read();
    if (v === null || sameValue(v, presetValue())) {
      delete overrides[name]; // an emptied field is the preset's value again
      write(presetValue());
    } else overrides[name] = v;
    sync();
    rulesChanged();
  });
  reset.addEventListener("click", () => {
    delete overrides[name];
    write(presetValue());
    sync();
    rulesChanged();
    input.focus();
  });
  const row = h("div", { class: "option", "data-option": name },
    h("label", { for: id }, h("code", { text: name }), h("span", { class: "option-help", text: spec.help })),
    h("div", { class: "option-value" }, input, mark, reset));
  write(value);
  return { row, write, presetValue, sync };
}

const optionControls = new Map();

function showPreset() {
  const p = currentPreset();
  $("#preset-seeds").textContent = t("presetSeeds", { seeds: p.seeds });
  for (const [name, c] of optionControls) {
    c.write(name in overrides ? overrides[name] : c.presetValue());
    c.sync();
  }
}

function buildRules() {
  const preset = $("#preset");
  preset.replaceChildren(...catalog.presets.map((p) => h("option", { value: p.name, text: p.name })));
  preset.value = catalog.defaultName;
  preset.addEventListener("change", () => {
    for (const k of Object.keys(overrides)) delete overrides[k];
    showPreset();
    rulesChanged();
  });
  const list = $("#options-list");
  for (const [name, spec] of Object.entries(catalog.model)) {
    const c = optionControl(name, spec, currentPreset().options[name]);
    optionControls.set(name, c);
    list.append(c.row);
  }
  const level = $("#trump-level");
  level.replaceChildren(...RANKS.map((r) => h("option", { value: r, text: r })));
  level.value = "2";
  const suit = $("#trump-suit");
  suit.replaceChildren(
    ...SUITS.map((s) => h("option", { value: s, tr: () => `${SUIT_SYMBOL[s]} ${suitName(s, lang())}` })),
    h("option", { value: "", tr: () => t("noTrump") }));
  suit.value = "S";
  showPreset();
}

let settle;

/** The rules changed: the band drawing follows, and every verdict on the page is asked again. */
async function rulesChanged() {
  settle.clear();
  settle.drawBands();
  for (const p of Object.values(panels)) if (p.out.dataset.ruled && p.key !== "audit") await rule(p);
  writeUrl();
}

// --- seats, language -------------------------------------------------------

function buildSeats() {
  const box = $("#seats-list");
  for (let s = 0; s < 4; s++) {
    const id = `seat-name-${s}`;
    const input = h("input", { id, type: "text", "data-state": `seat.${s}`, autocomplete: "off", maxlength: 40 });
    input.addEventListener("change", () => {
      setSeatName(s, input.value);
      retranslate();
    });
    box.append(h("div", { class: `field seat-name team-${s % 2}` },
      h("label", { for: id, tr: () => t("seatName", { n: s }) }),
      input,
      h("span", { class: "team-label", tr: () => t("teamOf", { t: api.teamName(s % 2), a: s % 2, b: (s % 2) + 2 }) })));
  }
}

function applyLanguage(l) {
  setWords(l);
  api.setLanguage(l);
  document.documentElement.lang = l === "zh" ? "zh-CN" : "en";
  $("#language").value = l;
  retranslate();
  refreshFields();
  showPreset();
  document.title = t("title");
}

// --- card picker -------------------------------------------------------------

function buildPalette() {
  const grid = $("#palette-cards");
  const cards = allCards();
  const draw = () => {
    grid.replaceChildren(...cards.map((c) => {
      const face = cardFace(c, lang());
      const label = face.getAttribute("aria-label");
      face.removeAttribute("role");
      face.setAttribute("aria-hidden", "true");
      return h("button", { type: "button", class: "pick", "data-card": c, "aria-label": label,
        on: { click: () => addToTarget(c) } }, face);
    }));
  };
  draw();
  document.addEventListener("console:language", draw);
  const toggle = $("#palette-toggle");
  const fold = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    $("#palette-body").hidden = !open;
  };
  toggle.addEventListener("click", () => fold(toggle.getAttribute("aria-expanded") !== "true"));
  fold(!window.matchMedia("(max-width: 700px)").matches); // a phone opens it when needed
  $("#palette-undo").addEventListener("click", () => {
    const f = pickerTarget();
    if (f) f.removeLast();
  });
  const showTarget = (f) => {
    $("#palette-target").textContent = f ? t("paletteTarget", { field: f.label() }) : t("paletteNone");
  };
  onTargetChange(showTarget);
  translated($("#palette-target"), () => {
    const f = pickerTarget();
    return f ? t("paletteTarget", { field: f.label() }) : t("paletteNone");
  });
}

function addToTarget(card) {
  const f = pickerTarget();
  if (f) f.add(card);
}

// --- panels and tabs -----------------------------------------------------------

const panels = {};
const TABS = ["trick", "throw", "kitty", "audit"];

function showTab(tab, focus = false) {
  for (const name of TABS) {
    const selected = name === tab;
    const button = $(`#tab-${name}`);
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(`#panel-${name}`).hidden = !selected;
  }
  $("#palette").hidden = tab === "audit";
  if (focus) $(`#tab-${tab}`).focus();
}

function currentTab() {
  return TABS.find((name) => $(`#tab-${name}`).getAttribute("aria-selected") === "true") || "trick";
}

function buildTabs() {
  const list = $("#tabs");
  const keys = { trick: "tabTrick", throw: "tabThrow", kitty: "tabKitty", audit: "tabAudit" };
  for (const name of TABS) {
    list.append(h("button", {
      type: "button", role: "tab", id: `tab-${name}`, "aria-controls": `panel-${name}`, tr: () => t(keys[name]),
      on: { click: () => showTab(name) },
    }));
  }
  list.addEventListener("keydown", (e) => {
    const i = TABS.indexOf(currentTab());
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -i, End: TABS.length - 1 - i };
    if (!(e.key in moves)) return;
    e.preventDefault();
    showTab(TABS[(i + moves[e.key] + TABS.length) % TABS.length], true);
  });
}

function mount(panel, where) {
  $(where).append(panel.form, panel.out);
  const stale = () => {
    if (!panel.out.dataset.ruled) return;
    delete panel.out.dataset.ruled; // the verdict no longer answers these inputs
    panel.out.classList.add("stale");
  };
  panel.form.addEventListener("input", stale);
  panel.form.addEventListener("change", stale);
  panel.form.addEventListener("submit", (e) => {
    e.preventDefault();
    rule(panel);
  });
}

async function rule(panel) {
  const button = panel.form.querySelector("button[type=submit]");
  button.disabled = true;
  panel.out.setAttribute("aria-busy", "true");
  try {
    const text = await panel.run();
    panel.out.dataset.ruled = "true";
    panel.out.classList.remove("stale");
    lastRuling = { panel: panel.key, text, at: new Date() };
    writeUrl();
    showPrintHeader();
  } catch (err) {
    delete panel.out.dataset.ruled;
    showError(panel.out, err);
  } finally {
    button.disabled = false;
    panel.out.removeAttribute("aria-busy");
  }
}

// --- the state in the URL --------------------------------------------------------

/** Everything on the page a ruling depends on, and which panels hold a ruling. */
function collectState() {
  const fields = {};
  for (const el of document.querySelectorAll("[data-state]")) {
    if (el.value !== "" && el.value !== undefined) fields[el.dataset.state] = el.value;
  }
  return {
    v: 1,
    lang: lang(),
    tab: currentTab(),
    preset: $("#preset").value,
    level: $("#trump-level").value,
    suit: $("#trump-suit").value,
    overrides,
    fields,
    step: panels.audit.getStep(),
    ruled: Object.values(panels).filter((p) => p.out.dataset.ruled).map((p) => p.key),
  };
}

function encode(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}

function permalink() {
  const url = new URL(window.location.href);
  url.hash = `r=${encode(collectState())}`;
  return url.toString();
}

function writeUrl() {
  history.replaceState(null, "", permalink());
}

function readUrl() {
  const m = /^#r=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
  if (!m) return null;
  try {
    return decode(m[1]);
  } catch {
    return null;
  }
}

function applyState(state) {
  if (catalog.presets.some((p) => p.name === state.preset)) $("#preset").value = state.preset;
  for (const k of Object.keys(overrides)) delete overrides[k];
  for (const [name, v] of Object.entries(state.overrides || {})) if (optionControls.has(name)) overrides[name] = v;
  if (RANKS.includes(state.level)) $("#trump-level").value = state.level;
  if (state.suit === "" || SUITS.includes(state.suit)) $("#trump-suit").value = state.suit;
  for (const el of document.querySelectorAll("[data-state]")) {
    const v = (state.fields || {})[el.dataset.state];
    if (v !== undefined) el.value = v;
  }
  for (let s = 0; s < 4; s++) setSeatName(s, $(`#seat-name-${s}`).value);
  panels.audit.listHands();
  const handValue = (state.fields || {})["audit.hand"];
  if (handValue !== undefined) $("#audit-hand").value = handValue;
  panels.audit.setStep(state.step);
  panels.kitty.showMode();
  refreshFields();
  showPreset();
  if (TABS.includes(state.tab)) showTab(state.tab);
}

// --- share and print --------------------------------------------------------------

function buildShare() {
  $("#share").addEventListener("click", async () => {
    const link = permalink();
    history.replaceState(null, "", link);
    const box = $("#share-link");
    box.value = link;
    $("#share-box").hidden = false;
    box.focus();
    box.select();
    try {
      await navigator.clipboard.writeText(link);
      $("#share-status").textContent = t("copied");
    } catch {
      $("#share-status").textContent = "";
    }
  });
  $("#print").addEventListener("click", () => {
    showPrintHeader();
    window.print();
  });
}

function rulesText() {
  const s = setup();
  const names = Object.entries(s.overrides).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`);
  return names.length ? `${s.preset} (${names.join(", ")})` : s.preset;
}

function showPrintHeader() {
  const s = setup();
  const trump = `${s.level}${s.suit ? SUIT_SYMBOL[s.suit] : ` ${t("noTrump")}`}`;
  $("#print-rules").textContent = lastRuling && lastRuling.panel === "audit"
    ? panels.audit.rulesText()
    : t("printRules", { rules: rulesText(), trump });
  $("#print-time").textContent = lastRuling ? t("printTime", { time: lastRuling.at.toLocaleString(lang() === "zh" ? "zh-CN" : "en-GB", { timeZoneName: "short" }) }) : "";
  $("#print-link").textContent = lastRuling ? permalink() : "";
}

// --- start ---------------------------------------------------------------------------

async function start() {
  const state = readUrl();
  setWords(state && state.lang ? state.lang : preferredLanguage());
  api.setLanguage(lang());
  for (const el of document.querySelectorAll("[data-i18n]")) translated(el, () => t(el.dataset.i18n));
  translated($("#options-count"), () => t("options", { n: Object.keys(overrides).length }));
  buildTabs();
  buildSeats();
  try {
    catalog = await api.loadRulesets();
  } catch (err) {
    showError($("#setup-error"), err);
    return;
  }
  buildRules();
  panels.trick = trickPanel(setup);
  panels.throw = throwPanel(setup);
  panels.kitty = kittyPanel(setup);
  settle = panels.settle = settlePanel(setup);
  panels.audit = auditPanel();
  mount(panels.trick, "#panel-trick");
  mount(panels.throw, "#panel-throw");
  mount(panels.kitty, "#panel-kitty");
  mount(panels.settle, "#panel-kitty");
  mount(panels.audit, "#panel-audit");
  buildPalette();
  buildShare();
  $("#language").addEventListener("change", async () => {
    applyLanguage($("#language").value);
    document.dispatchEvent(new Event("console:language"));
    const tab = currentTab();
    const again = Object.values(panels).filter((p) => p.out.dataset.ruled);
    for (const p of again) await rule(p);
    writeUrl();
  });
  ["#trump-level", "#trump-suit"].forEach((sel) => $(sel).addEventListener("change", rulesChanged));
  if (state) applyState(state);
  applyLanguage(lang());
  settle.drawBands();
  showTab(state && TABS.includes(state.tab) ? state.tab : "trick");
  const ruled = state ? [].concat(state.ruled || []) : [];
  for (const key of ruled) if (panels[key] && panels[key].ready()) await rule(panels[key]);
  document.body.dataset.ready = "true";
}

start();
