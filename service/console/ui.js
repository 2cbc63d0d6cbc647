// Small DOM helpers shared by the console's panels: elements, translated
// texts, card fields (typed or picked), card rows and seat names.

import { cardFace, markIndices, parseCards } from "./cards.js";
import { lang, t } from "./i18n.js";

/** h("p", {class: "x", text: "y", on: {click: f}, "aria-live": "polite"}, ...children) */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k === "class") el.className = v;
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === "tr") translated(el, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Replace `box`'s children with `children`, leaving out null and false (absent parts). */
export function fill(box, ...children) {
  box.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return box;
}

const TEXTS = [];

/** Give `el` the text `make()` returns, now and after every language change. */
export function translated(el, make) {
  TEXTS.push([el, make]);
  el.textContent = make();
  return el;
}

/** Every translated text again (after a language change); texts of elements
 * no longer on the page are forgotten. */
export function retranslate() {
  for (let i = TEXTS.length - 1; i >= 0; i--) {
    const [el, make] = TEXTS[i];
    if (el.isConnected) el.textContent = make();
    else TEXTS.splice(i, 1);
  }
}

// --- seats -----------------------------------------------------------------

const seatNames = ["", "", "", ""];

export function setSeatName(seat, name) {
  seatNames[seat] = name.trim();
}

/** "Seat 2" or "Seat 2 (Wang)". */
export function seatLabel(seat) {
  const base = t("seat", { n: seat });
  return seatNames[seat] ? `${base} (${seatNames[seat]})` : base;
}

/** A <select> of the four seats. */
export function seatSelect(id, stateKey, labelKey, initial = 0) {
  const select = h("select", { id, "data-state": stateKey });
  for (let s = 0; s < 4; s++) {
    const opt = h("option", { value: String(s), tr: () => seatLabel(s) });
    select.append(opt);
  }
  select.value = String(initial);
  return h("div", { class: "field" }, h("label", { for: id, tr: () => t(labelKey) }), select);
}

// --- cards ----------------------------------------------------------------

/** A row of card faces; `marked` cards get `markClass` (each marked copy once). */
export function cardRow(cards, { marked = [], markClass = "hint", label = null } = {}) {
  const hits = markIndices(cards, marked);
  const row = h("span", { class: "cards", role: "group" });
  if (label) row.setAttribute("aria-label", label);
  cards.forEach((c, i) => row.append(cardFace(c, lang(), hits.has(i) ? `marked ${markClass}` : "")));
  return row;
}

const FIELDS = new Map();
let target = null;
const targetListeners = [];

/** The card field the picker adds to (the last one focused). */
export function pickerTarget() {
  return target;
}

export function onTargetChange(fn) {
  targetListeners.push(fn);
}

function setTarget(field) {
  target = field;
  for (const f of FIELDS.values()) f.wrap.classList.toggle("target", f === field);
  for (const fn of targetListeners) fn(field);
}

/** A card field: a text input taking notation, with the cards drawn under it
 * and anything that is no card named. `label()` gives its label text. */
export function cardField(key, label, { multiline = false } = {}) {
  const id = `f-${key.replace(/\./g, "-")}`;
  const input = h(multiline ? "textarea" : "input", {
    id,
    "data-state": key,
    "data-cards": "",
    autocomplete: "off",
    spellcheck: "false",
    rows: multiline ? 2 : undefined,
    type: multiline ? undefined : "text",
    "aria-describedby": `${id}-err`,
  });
  const preview = h("div", { class: "preview", "aria-hidden": "true" });
  const error = h("p", { class: "field-error", id: `${id}-err`, role: "status" });
  const labelEl = h("label", { for: id, tr: label });
  const wrap = h("div", { class: "field card-field" }, labelEl, input, preview, error);
  const field = {
    key,
    wrap,
    input,
    label,
    cards() {
      return parseCards(input.value).cards;
    },
    errors() {
      return parseCards(input.value).errors;
    },
    refresh() {
      const { cards, errors } = parseCards(input.value);
      preview.replaceChildren(cardRow(cards));
      error.textContent = errors.length ? t("notCards", { text: errors.join(" ") }) : "";
      wrap.classList.toggle("invalid", errors.length > 0);
    },
    add(card) {
      input.value = (input.value.trim() ? `${input.value.trim()} ` : "") + card;
      field.refresh();
    },
    removeLast() {
      const { cards } = parseCards(input.value);
      cards.pop();
      input.value = cards.join(" ");
      field.refresh();
    },
  };
  input.addEventListener("input", () => field.refresh());
  input.addEventListener("focus", () => setTarget(field));
  FIELDS.set(key, field);
  return field;
}

export function field(key) {
  return FIELDS.get(key);
}

export function refreshFields() {
  for (const f of FIELDS.values()) f.refresh();
}

/** The reasons the referee gave, as a list. */
export function reasonList(reasons) {
  return h("ul", { class: "reasons" }, reasons.map((r) => h("li", { "data-code": r.code, text: r.message })));
}

/** A refused request, or a local error, shown in `box` (announced). */
export function showError(box, err) {
  const detail = err && err.message ? err.message : String(err);
  const items = (err && err.details) || [];
  fill(box,
    h("div", { class: "error", role: "alert" },
      h("p", { text: err && err.status ? t("failed", { detail }) : detail }),
      items.length ? h("ul", {}, items.map((d) => h("li", {
        "data-pointer": d.pointer,
        text: `${d.seat === null || d.seat === undefined ? d.pointer : seatLabel(d.seat)}: ${d.message}`,
      }))) : null),
  );
}
