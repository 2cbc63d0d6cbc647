// The console's four panels: a disputed trick, a throw, the kitty and the
// levels, and a whole-hand audit. Each builds its form once and draws the
// referee's answer (read by api.js) into its verdict area.

import * as api from "./api.js";
import { RANKS, cardsText, parseCards, without } from "./cards.js";
import { t } from "./i18n.js";
import { cardField, cardRow, fill, h, reasonList, seatLabel, seatSelect } from "./ui.js";

const SEATS = [0, 1, 2, 3];

function verdictArea(id) {
  return h("div", { id, class: "verdict", "aria-live": "polite" });
}

function submitButton(key) {
  return h("button", { type: "submit", class: "primary", tr: () => t(key) });
}

function need(cards) {
  if (!cards.length) throw new Error(t("needCards"));
  return cards;
}

function checkFields(fields) {
  const bad = fields.find((f) => f.errors().length);
  if (bad) throw new Error(`${bad.label()}: ${t("notCards", { text: bad.errors().join(" ") })}`);
}

function badge(kind, text) {
  return h("span", { class: `badge ${kind}`, text });
}

function legalBadge(legal) {
  if (legal === true) return badge("legal", `✓ ${t("legal")}`);
  if (legal === false) return badge("illegal", `✗ ${t("illegal")}`);
  return badge("unjudged", t("unjudged"));
}

function roleBadge(role) {
  return h("span", { class: `badge role role-${role}`, "data-role": role, text: t("roles")[role] || role });
}

/** One play of a trick as a row: seat, cards, role, legality, reasons. */
function playRow(play, isWinner) {
  return h("li", {
    class: `play${isWinner ? " winner" : ""}${play.legal === false ? " illegal" : ""}`,
    "data-seat": play.seat,
    "data-role": play.role,
    "data-legal": String(play.legal),
  },
  h("div", { class: "play-head" },
    h("strong", { text: seatLabel(play.seat) }),
    roleBadge(play.role),
    legalBadge(play.legal),
    isWinner ? badge("winner-badge", `★ ${t("winner")}`) : null),
  cardRow(play.cards, { label: seatLabel(play.seat) }),
  reasonList(play.reasons));
}

// --- the disputed trick ------------------------------------------------------

export function trickPanel(setup) {
  const plays = SEATS.map((s) => cardField(`trick.play.${s}`, () => t("play", { seat: seatLabel(s) })));
  const hands = SEATS.map((s) => cardField(`trick.hand.${s}`, () => t("hand", { seat: seatLabel(s) }), { multiline: true }));
  const leader = seatSelect("trick-leader", "trick.leader", "leader");
  const out = verdictArea("trick-verdict");
  const form = h("form", { id: "trick-form", novalidate: true },
    h("p", { class: "help", tr: () => t("trickHelp") }),
    leader,
    h("div", { class: "seats" }, SEATS.map((s) => h("fieldset", { class: "seat" },
      h("legend", { tr: () => seatLabel(s) }), plays[s].wrap, hands[s].wrap))),
    submitButton("askTrick"));

  async function run() {
    checkFields([...plays, ...hands]);
    const lead = Number(leader.querySelector("select").value);
    const bySeat = plays.map((f) => need(f.cards()));
    const handCards = hands.map((f) => f.cards());
    const verdict = await api.judgeTrick(setup(), { leader: lead, plays: bySeat, hands: handCards });
    const rows = [];
    for (const play of verdict.plays) {
      const row = playRow(play, play.seat === verdict.winner);
      if (play.legal === false && handCards[play.seat].length) {
        const follow = await api.judgeFollow(setup(), bySeat[lead], handCards[play.seat], play.cards);
        row.append(h("div", { class: "owed" },
          h("p", { class: "owed-text", text: t("owed", { owed: follow.owed }) }),
          h("p", { class: "example-text", text: t("example", { cards: cardsText(follow.example) }) }),
          cardRow(handCards[play.seat], { marked: follow.example, label: t("handLabel", { seat: seatLabel(play.seat) }) })));
      }
      rows.push(row);
    }
    const text = t("trickVerdict", { seat: seatLabel(verdict.winner), points: verdict.points, a: verdict.team, b: verdict.team + 2 });
    // a lead of several units is a throw: with every other seat's hand known, say whether it
    // stands (the referee rules only on the hands it is shown: docs/api.md)
    const othersKnown = SEATS.every((s) => s === lead || handCards[s].length);
    const thrown = verdict.leadUnits.length > 1 && othersKnown
      ? await api.checkThrow(setup(), { leader: lead, lead: bySeat[lead], hands: handCards })
      : null;
    fill(out,
      h("p", { class: "verdict-text", "data-winner": verdict.winner, text }),
      thrown ? throwLine(thrown, lead) : null,
      h("ol", { class: "plays" }, rows));
    return text;
  }
  return { key: "trick", form, out, run, ready: () => plays.every((f) => f.cards().length) };
}

// --- a throw -----------------------------------------------------------------

export function throwPanel(setup) {
  const leader = seatSelect("throw-leader", "throw.leader", "leader");
  const lead = cardField("throw.lead", () => t("lead"));
  const hands = SEATS.map((s) => cardField(`throw.hand.${s}`, () => t("throwHand", { seat: seatLabel(s) }), { multiline: true }));
  const out = verdictArea("throw-verdict");
  const form = h("form", { id: "throw-form", novalidate: true },
    h("p", { class: "help", tr: () => t("throwHelp") }),
    leader, lead.wrap,
    h("div", { class: "seats" }, hands.map((f) => f.wrap)),
    submitButton("askThrow"));

  async function run() {
    checkFields([lead, ...hands]);
    const seat = Number(leader.querySelector("select").value);
    const v = await api.checkThrow(setup(), { leader: seat, lead: need(lead.cards()), hands: hands.map((f) => f.cards()) });
    const text = v.valid
      ? t("throwStands", { cards: cardsText(v.forcedPlay) })
      : t("throwFails", { seat: seatLabel(seat), cards: cardsText(v.forcedPlay) });
    const blockers = new Map(); // seat -> cards to highlight
    for (const f of v.failed) for (const b of f.beatenBy) blockers.set(b.seat, (blockers.get(b.seat) || []).concat(b.cards));
    const units = h("ul", { class: "units" }, v.units.map((u) => {
      const failed = v.failed.find((f) => cardsText(f.unit.cards) === cardsText(u.cards));
      return h("li", { class: `unit ${u.failed ? "failed" : "stands"}`, "data-unit": cardsText(u.cards) },
        cardRow(u.cards),
        badge(u.failed ? "illegal" : "legal", u.failed ? `✗ ${t("unitFailed")}` : `✓ ${t("unitStands")}`),
        failed ? h("ul", { class: "beaten-by" }, failed.beatenBy.map((b) =>
          h("li", { "data-seat": b.seat, text: t("beatenBy", { seat: seatLabel(b.seat), cards: cardsText(b.cards) }) }))) : null);
    }));
    const handRows = SEATS.filter((s) => hands[s].cards().length).map((s) =>
      h("div", { class: "hand-view", "data-seat": s },
        h("strong", { text: seatLabel(s) }),
        cardRow(hands[s].cards(), { marked: blockers.get(s) || [], markClass: "blocker", label: t("handLabel", { seat: seatLabel(s) }) })));
    fill(out,
      h("p", { class: `verdict-text ${v.valid ? "ok" : "bad"}`, text }),
      h("div", { class: "forced", id: "throw-forced" },
        h("strong", { text: t("forced") }), cardRow(v.forcedPlay, { label: t("forced") })),
      h("p", { class: "penalty", text: `${t("penalty")}: ${penaltyText(v.penalty)}` }),
      h("h3", { text: t("units") }), units,
      handRows.length ? h("div", { class: "hands" }, handRows) : null,
      h("h3", { text: t("reasonsHeading") }), reasonList(v.reasons));
    return text;
  }
  return { key: "throw", form, out, run, ready: () => lead.cards().length > 0 };
}

/** A throw's verdict in one line (the audit): what was thrown, and if it failed, the forced play and the penalty. */
function throwLine(v, leader) {
  const thrown = cardsText(v.units.flatMap((u) => u.cards));
  const text = v.valid
    ? t("throwStands", { cards: thrown })
    : `${t("throwTried", { seat: seatLabel(leader), cards: thrown })} ${t("throwFails", { seat: seatLabel(leader), cards: cardsText(v.forcedPlay) })} ${t("penalty")}: ${penaltyText(v.penalty)}.`;
  return h("p", { class: `throw-line ${v.valid ? "ok" : "bad"}`, text });
}

function penaltyText(p) {
  if (p.kind === "match_point") return t("penaltyMatch", { amount: p.amount, seat: seatLabel(p.seat) });
  if (p.kind.startsWith("points_per_")) return t("penaltyPoints", { amount: p.amount, team: api.teamName(p.team) });
  return t("penaltyNone");
}

// --- kitty and settlement ------------------------------------------------------

function numberField(id, key, label, attrs = {}) {
  const input = h("input", { id, type: "number", "data-state": key, inputmode: "numeric", ...attrs });
  return { wrap: h("div", { class: "field" }, h("label", { for: id, tr: label }), input), input };
}

function selectField(id, key, label, options) {
  const select = h("select", { id, "data-state": key });
  for (const [value, text] of options) select.append(h("option", { value, tr: text }));
  return { wrap: h("div", { class: "field" }, h("label", { for: id, tr: label }), select), select };
}

function optionalNumber(input) {
  return input.value.trim() === "" ? null : Number(input.value);
}

export function kittyPanel(setup) {
  const dealer = seatSelect("kitty-dealer", "kitty.dealer", "dealer");
  const mode = selectField("kitty-mode", "kitty.mode", () => t("kittyMode"),
    [["trick", () => t("modeTrick")], ["lead", () => t("modeLead")]]);
  const leader = seatSelect("kitty-leader", "kitty.leader", "leader", 1);
  const plays = SEATS.map((s) => cardField(`kitty.play.${s}`, () => t("lastPlay", { seat: seatLabel(s) })));
  const lastLead = cardField("kitty.lead", () => t("lastLead"));
  const winner = seatSelect("kitty-winner", "kitty.winner", "lastWinner", 1);
  const trumps = selectField("kitty-trumps", "kitty.trumps", () => t("wonWithTrumps"),
    [["", () => t("unknown")], ["yes", () => t("yes")], ["no", () => t("no")]]);
  const kittyCards = cardField("kitty.cards", () => t("kittyCards"), { multiline: true });
  const points = numberField("kitty-points", "kitty.points", () => t("defenderPointsBefore"), { step: 5 });
  const byTrick = h("div", { class: "by-trick" }, leader, h("div", { class: "seats" }, plays.map((f) => f.wrap)));
  const byLead = h("div", { class: "by-lead", hidden: true }, lastLead.wrap, winner, trumps.wrap);
  const showMode = () => {
    byTrick.hidden = mode.select.value !== "trick";
    byLead.hidden = mode.select.value !== "lead";
  };
  mode.select.addEventListener("change", showMode);
  const out = verdictArea("kitty-verdict");
  const form = h("form", { id: "kitty-form", novalidate: true },
    h("h2", { tr: () => t("kittyHeading") }),
    dealer, mode.wrap, byTrick, byLead, kittyCards.wrap, points.wrap,
    submitButton("askKitty"));

  async function run() {
    showMode();
    const byWhole = mode.select.value === "trick";
    checkFields(byWhole ? [...plays, kittyCards] : [lastLead, kittyCards]);
    const form = {
      dealer: Number(dealer.querySelector("select").value),
      kitty: kittyCards.cards(),
      defenderPoints: optionalNumber(points.input),
    };
    if (byWhole) {
      form.lastTrick = { leader: Number(leader.querySelector("select").value), plays: plays.map((f) => need(f.cards())) };
    } else {
      form.lastLead = need(lastLead.cards());
      form.winner = Number(winner.querySelector("select").value);
      form.wonWithTrumps = trumps.select.value === "" ? null : trumps.select.value === "yes";
    }
    const v = await api.kitty(setup(), form);
    const text = v.to === "none"
      ? t("kittyNone", { multiplier: v.multiplier, points: v.kittyPoints })
      : t("kittyVerdict", { multiplier: v.multiplier, awarded: v.awarded, to: t("sides")[v.to] });
    fill(out,
      h("p", { class: "verdict-text", "data-multiplier": v.multiplier, text }),
      h("h3", { text: t("reasonsHeading") }), reasonList(v.reasons));
    return text;
  }
  const ready = () => (mode.select.value === "trick" ? plays.every((f) => f.cards().length) : lastLead.cards().length > 0);
  return { key: "kitty", form, out, run, ready, showMode };
}

/** The level table of the rules in force: the preset's, or the named table of an override. */
function levelTable(s) {
  const table = s.overrides.level_table ?? s.presetOptions.level_table;
  if (typeof table !== "string") return table;
  const owner = s.presets.find((p) => p.options.level_table && p.options.level_table.name === table);
  return owner ? owner.options.level_table : null;
}

function bandsView(table, hit) {
  if (!table) return h("p", {});
  const list = h("ol", { class: "bands", "aria-label": t("bandsHeading") }, table.bands.map((b) => {
    const range = b.from === null ? t("bandBelow", { to: b.to }) : b.to === null ? t("bandAbove", { from: b.from }) : t("bandRange", { from: b.from, to: b.to });
    const isHit = hit && hit.from === b.from && hit.to === b.to;
    return h("li", {
      class: `band side-${b.side}${isHit ? " hit" : ""}`,
      "data-from": b.from ?? "", "data-to": b.to ?? "",
      "aria-current": isHit ? "true" : undefined,
    },
    h("span", { class: "band-range", text: range }),
    h("span", { class: "band-levels", text: `${t("sides")[b.side]} +${b.levels}` }));
  }));
  return h("div", {}, list, table.step ? h("p", { class: "band-step", text: t("bandStep", { step: table.step }) }) : null);
}

export function settlePanel(setup) {
  const dealer = seatSelect("settle-dealer", "settle.dealer", "dealer");
  const points = numberField("settle-points", "settle.points", () => t("defenderPoints"), { step: 5 });
  const rankOptions = RANKS.map((r) => [r, () => r]);
  const levels = [0, 1].map((team) => selectField(`settle-level-${team}`, `settle.level.${team}`,
    () => t("teamLevel", { t: api.teamName(team), a: team, b: team + 2 }), rankOptions));
  const bands = h("div", { id: "settle-bands" });
  const out = verdictArea("settle-verdict");
  const form = h("form", { id: "settle-form", novalidate: true },
    h("h2", { tr: () => t("settleHeading") }),
    dealer, points.wrap, h("div", { class: "row" }, levels.map((l) => l.wrap)),
    submitButton("askSettle"),
    h("h3", { tr: () => t("bandsHeading") }), bands);
  let hit = null;
  const drawBands = () => fill(bands, bandsView(levelTable(setup()), hit));

  async function run() {
    if (points.input.value.trim() === "") throw new Error(t("defenderPoints"));
    const v = await api.settle(setup(), {
      dealer: Number(dealer.querySelector("select").value),
      defenderPoints: Number(points.input.value),
      levels: levels.map((l) => l.select.value),
    });
    hit = v.band;
    drawBands();
    const who = v.outcome === "dealer_keeps" ? t("dealerKeeps") : t("defendersTake");
    const text = t("settleVerdict", { who, levels: v.levelsGained, team: api.teamName(v.team) });
    fill(out,
      h("p", { class: "verdict-text", "data-outcome": v.outcome, text }),
      h("p", { text: t("newLevels", { a: v.newLevels[0], b: v.newLevels[1] }) }),
      h("p", { text: t("nextDealer", { seat: seatLabel(v.nextDealer) }) }),
      v.gameWon ? h("p", { class: "game-won", text: t("gameWon", { team: api.teamName(v.team) }) }) : null,
      h("h3", { text: t("reasonsHeading") }), reasonList(v.reasons));
    return text;
  }
  return { key: "settle", form, out, run, drawBands, ready: () => points.input.value.trim() !== "",
    clear() { hit = null; } };
}

// --- a whole-hand audit -------------------------------------------------------

/** The hand records in a pasted text: one JSON object, or JSON lines. */
export function handRecords(text) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  try {
    const one = JSON.parse(trimmed);
    return Array.isArray(one) ? one : [one];
  } catch (whole) {
    const lines = trimmed.split(/\r?\n/).filter((l) => l.trim());
    if (lines.length < 2) throw new Error(t("notJson", { error: whole.message }));
    return lines.map((l, i) => {
      try {
        return JSON.parse(l);
      } catch (e) {
        throw new Error(`${t("handN", { n: i + 1 })}: ${t("notJson", { error: e.message })}`);
      }
    });
  }
}

export function auditPanel() {
  const textId = "audit-text";
  const text = h("textarea", { id: textId, rows: 8, "data-state": "audit.text", spellcheck: "false" });
  const file = h("input", { id: "audit-file", type: "file", accept: ".json,.jsonl,.ndjson,application/json" });
  const which = h("select", { id: "audit-hand", "data-state": "audit.hand" });
  const whichWrap = h("div", { class: "field", hidden: true }, h("label", { for: "audit-hand", tr: () => t("whichHand") }), which);
  const out = verdictArea("audit-verdict");
  const stepView = h("div", { id: "audit-step" });
  let result = null;
  let record = null;
  let step = 0;

  const listHands = () => {
    let records = [];
    try {
      records = handRecords(text.value);
    } catch {
      records = [];
    }
    const keep = which.value;
    fill(which, ...records.map((_, i) => h("option", { value: String(i), tr: () => t("handN", { n: i + 1 }) })));
    if (keep && Number(keep) < records.length) which.value = keep;
    whichWrap.hidden = records.length < 2;
  };
  text.addEventListener("input", listHands);
  file.addEventListener("change", async () => {
    if (!file.files.length) return;
    text.value = await file.files[0].text();
    listHands();
  });

  const form = h("form", { id: "audit-form", novalidate: true },
    h("p", { class: "help", tr: () => t("auditHelp") }),
    h("div", { class: "field" }, h("label", { for: textId, tr: () => t("auditText") }), text),
    h("div", { class: "field" }, h("label", { for: "audit-file", tr: () => t("upload") }), file),
    whichWrap,
    submitButton("askAudit"));

  const where = (v) => (v.trick === null ? t("theDeal") : t("trickN", { n: v.trick + 1 }));

  function handsBefore(index) {
    const deal = api.recordedDeal(record);
    const hands = deal.hands.map((cards) => parseCards(Array.isArray(cards) ? cards.join(" ") : "").cards);
    for (const trick of deal.tricks.slice(0, index)) {
      trick.plays.forEach((cards, i) => {
        const seat = (trick.leader + i) % 4;
        hands[seat] = without(hands[seat], parseCards((cards || []).join(" ")).cards);
      });
    }
    return hands;
  }

  function showStep(index, focus = false) {
    if (!result || !result.tricks.length) return;
    step = Math.max(0, Math.min(index, result.tricks.length - 1));
    const trick = result.tricks[step];
    for (const b of nav.querySelectorAll("button[data-trick]")) {
      b.setAttribute("aria-current", Number(b.dataset.trick) === step ? "step" : "false");
    }
    const led = trick.leader === trick.expectedLeader
      ? t("ledBy", { seat: seatLabel(trick.leader) })
      : t("expectedLeader", { seat: seatLabel(trick.leader), expected: seatLabel(trick.expectedLeader) });
    const hands = handsBefore(step);
    const heading = h("h3", { tabindex: "-1", text: `${t("trickN", { n: step + 1 })} · ${led}` });
    fill(stepView,
      heading,
      trick.throw ? throwLine(trick.throw, trick.leader) : null,
      h("ol", { class: "plays" }, trick.plays.map((p) => playRow(p, p.seat === trick.winner))),
      h("p", { text: trick.winner === null ? t("noWinner") : t("trickPoints", { points: trick.points }) }),
      h("p", { class: "running", text: t("runningPoints", { points: trick.defenderPoints }) }),
      trick.violations.length
        ? h("div", { class: "violations", "data-trick": step },
          h("h4", { text: t("violations") }),
          h("ul", {}, trick.violations.map((v) => h("li", { "data-code": v.code },
            h("strong", { text: `${v.seat === null ? "" : seatLabel(v.seat) + " · "}${v.code}` }), " ", v.message))))
        : null,
      h("details", { class: "hands-before" },
        h("summary", { text: t("handsAtTrick") }),
        SEATS.map((s) => h("div", { class: "hand-view", "data-seat": s },
          h("strong", { text: seatLabel(s) }), cardRow(hands[s], { label: t("handLabel", { seat: seatLabel(s) }) })))));
    if (focus) heading.focus();
  }

  const nav = h("nav", { class: "steps" });

  /** The rules the audited record states (not the console's). */
  function recordRules() {
    const deal = api.recordedDeal(record);
    const rules = typeof deal.rules === "string" ? deal.rules
      : Object.entries(deal.rules).map(([k, v]) => (k === "preset" ? v : `${k}=${JSON.stringify(v)}`)).join(", ");
    const trump = deal.trump ? `${deal.trump.level}${deal.trump.suit ? ` ${deal.trump.suit}` : ` ${t("noTrump")}`}` : "?";
    return t("recordRules", { rules, trump, dealer: seatLabel(deal.dealer) });
  }

  async function run() {
    const records = handRecords(text.value);
    if (!records.length) throw new Error(t("noHands"));
    record = records[Math.min(Number(which.value || 0), records.length - 1)];
    result = await api.auditHand(record);
    const first = result.firstViolation;
    const summary = first
      ? t("auditDirty", { n: result.violations.length, where: where(first) })
      : t("auditClean", { n: result.tricks.length });
    fill(nav,
      h("span", { class: "steps-label", text: t("steps") }),
      h("button", { type: "button", class: "prev", "aria-label": t("prev"), text: "‹", on: { click: () => showStep(step - 1, true) } }),
      ...result.tricks.map((tr) => h("button", {
        type: "button",
        "data-trick": tr.index,
        class: tr.violations.length ? "step violation" : "step",
        "aria-label": `${t("trickN", { n: tr.index + 1 })}${tr.violations.length ? ` · ${t("violations")}` : ""}`,
        text: tr.violations.length ? `${tr.index + 1}✗` : String(tr.index + 1),
        on: { click: () => showStep(tr.index, true) },
      })),
      h("button", { type: "button", class: "next", "aria-label": t("next"), text: "›", on: { click: () => showStep(step + 1, true) } }));
    const dealViolations = result.violations.filter((v) => v.trick === null);
    fill(out,
      h("p", { class: `verdict-text ${result.valid ? "ok" : "bad"}`, "data-valid": String(result.valid), text: summary }),
      h("p", { class: "record-rules", text: recordRules() }),
      first && first.trick !== null
        ? h("button", { type: "button", id: "audit-first", class: "primary", text: t("firstViolation"),
          on: { click: () => showStep(first.trick, true) } })
        : null,
      dealViolations.length ? h("div", { class: "violations" }, h("h4", { text: t("dealViolations") }),
        h("ul", {}, dealViolations.map((v) => h("li", { "data-code": v.code, text: `${v.code}: ${v.message}` })))) : null,
      h("p", { text: t("totals", { points: result.defenderPoints, tricks: result.trickPoints }) }),
      nav, stepView);
    showStep(Math.min(step, result.tricks.length - 1));
    return summary;
  }
  return {
    key: "audit", form, out, run, listHands,
    ready: () => text.value.trim() !== "",
    getStep: () => step,
    rulesText: () => (record ? recordRules() : ""),
    setStep: (n) => { step = Number(n) || 0; },
  };
}
