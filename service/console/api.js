// The one place that knows the service's JSON shapes.
//
// Every request body is built here and every answer is read here into the
// plain objects the page draws (seats as numbers, teams as 0 = seats 0/2 and
// 1 = seats 1/3, reasons as {code, message}). When an answer's shape changes,
// only this module changes.

let language = "en";

/** The language of the referee's messages (sent as Accept-Language). */
export function setLanguage(lang) {
  language = lang === "zh" ? "zh" : "en";
}

/** A refusal by the service (problem+json): its detail and each pointer's message,
 * with the seat the pointer is about when there is one (`seatOf`). */
export class RefereeError extends Error {
  constructor(status, problem, seatOf) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || null;
    this.details = (problem.errors || []).map((e) => ({ pointer: e.pointer, message: e.message, seat: seatOf(e.pointer) }));
  }
}

/** Which seat a JSON Pointer into a request names: `/hands/2` is seat 2, and
 * `/plays/1` (playing order) the seat after the leader. */
function seatsOf(leader) {
  return (pointer) => {
    const hand = /\/hands\/(\d)(?:\/|$)/.exec(pointer || "");
    if (hand) return Number(hand[1]);
    const play = /\/plays\/(\d)(?:\/|$)/.exec(pointer || "");
    if (play && leader !== null) return (leader + Number(play[1])) % 4;
    return null;
  };
}

async function call(method, path, body, leader = null) {
  const init = { method, headers: { "Accept-Language": language } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const resp = await fetch(path, init);
  const data = await resp.json();
  if (!resp.ok) throw new RefereeError(resp.status, data, seatsOf(leader));
  return data;
}

const reasons = (list) => (list || []).map((r) => ({ code: r.code, message: r.message }));

/** A team as the service writes it (docs/api.md), "A" (seats 0 and 2) or "B" (seats 1 and 3),
 * as the page's team number: 0 or 1 (its lower seat). */
function teamOf(value) {
  if (value === "A") return 0;
  if (value === "B") return 1;
  return null;
}

/** The name the service and the page show for team number 0 or 1. */
export const teamName = (team) => "AB"[team];

/** The presets and the option model: {defaultName, presets: [{name, seeds, options}], model}. */
export async function loadRulesets() {
  const data = await call("GET", "/v1/rulesets");
  return {
    defaultName: data.default,
    presets: data.rulesets.map((r) => ({ name: r.name, seeds: r.seeds, options: r.options })),
    model: data.options,
  };
}

/** `rules` of a request: the preset's name, or the preset with the overrides. */
function rulesOf(setup) {
  const names = Object.keys(setup.overrides);
  return names.length ? { preset: setup.preset, ...setup.overrides } : setup.preset;
}

function trumpOf(setup) {
  return { level: setup.level, suit: setup.suit || null };
}

function unit(u) {
  return { kind: u.type, width: u.width, length: u.length, cards: u.cards };
}

/** Plays keyed by seat → in playing order from the leader, as the service takes them. */
function inPlayingOrder(bySeat, leader) {
  return [0, 1, 2, 3].map((i) => bySeat[(leader + i) % 4]);
}

function handsBySeat(hands) {
  const out = {};
  hands.forEach((cards, seat) => {
    if (cards && cards.length) out[String(seat)] = cards;
  });
  return out;
}

/** Roles as a director names them: a ruff that beats an earlier ruff is an over-ruff. */
function playsWithRoles(plays) {
  let bestRole = null;
  return plays.map((p, i) => {
    let role = p.role;
    if (i === 0) bestRole = p.role;
    else if (p.beats_previous_best) {
      if (p.role === "ruff" && bestRole === "ruff") role = "over-ruff";
      bestRole = p.role;
    }
    return {
      seat: p.seat,
      cards: p.cards,
      role,
      beats: p.beats_previous_best,
      legal: p.legal,
      reasons: reasons(p.reasons),
    };
  });
}

/** POST /v1/trick. `trick` = {leader, plays: cards by seat, hands: cards by seat (any may be empty)}. */
export async function judgeTrick(setup, trick) {
  const body = {
    rules: rulesOf(setup),
    trump: trumpOf(setup),
    leader: trick.leader,
    plays: inPlayingOrder(trick.plays, trick.leader),
  };
  const hands = handsBySeat(trick.hands);
  if (Object.keys(hands).length) body.hands = hands;
  const data = await call("POST", "/v1/trick", body, trick.leader);
  return {
    winner: data.winner,
    team: teamOf(data.team),
    points: data.points,
    suit: data.suit,
    leadUnits: data.lead_units.map(unit),
    plays: playsWithRoles(data.plays),
  };
}

/** POST /v1/follow: what the hand owed the lead, and one legal play. */
export async function judgeFollow(setup, lead, hand, play) {
  const data = await call("POST", "/v1/follow", {
    rules: rulesOf(setup),
    trump: trumpOf(setup),
    lead,
    hand,
    play,
  });
  return {
    legal: data.legal,
    owed: data.required.text,
    suit: data.required.suit,
    suitCardsOwed: data.required.cards,
    example: data.example,
    reasons: reasons(data.reasons),
  };
}

function throwVerdict(data) {
  const failed = data.failed_units.map((f) => ({
    unit: unit(f.unit),
    beatenBy: f.beaten_by.map((b) => ({ seat: b.seat, cards: b.cards })),
  }));
  const failedKeys = new Set(failed.map((f) => f.unit.cards.join(" ")));
  return {
    valid: data.valid,
    suit: data.suit,
    units: data.units.map((u) => ({ ...unit(u), failed: failedKeys.has(u.cards.join(" ")) })),
    failed,
    forcedPlay: data.forced_play,
    penalty: {
      kind: data.penalty.kind,
      amount: data.penalty.amount,
      seat: data.penalty.seat,
      team: teamOf(data.penalty.team),
    },
    reasons: reasons(data.reasons),
  };
}

/** POST /v1/throw. `attempt` = {leader, lead, hands: cards by seat}. */
export async function checkThrow(setup, attempt) {
  const data = await call("POST", "/v1/throw", {
    rules: rulesOf(setup),
    trump: trumpOf(setup),
    leader: attempt.leader,
    lead: attempt.lead,
    hands: handsBySeat(attempt.hands),
  }, attempt.leader);
  return throwVerdict(data);
}

function kittyVerdict(data) {
  return {
    multiplier: data.multiplier,
    kittyPoints: data.kitty_points,
    awarded: data.awarded,
    to: data.to,
    kind: data.kind,
    winner: data.winner,
    winnerSide: data.winner_side,
    transfer: data.transfer,
    defenderPointsAfter: data.defender_points_after,
    reasons: reasons(data.reasons),
  };
}

/** POST /v1/kitty. `form` = {dealer, kitty, defenderPoints|null, and either
 * lastTrick {leader, plays by seat} or lastLead + winner (+ wonWithTrumps|null)}. */
export async function kitty(setup, form) {
  const body = { rules: rulesOf(setup), trump: trumpOf(setup), dealer: form.dealer, kitty: form.kitty };
  if (form.lastTrick) {
    body.last_trick = { leader: form.lastTrick.leader, plays: inPlayingOrder(form.lastTrick.plays, form.lastTrick.leader) };
  } else {
    body.last_lead = form.lastLead;
    body.winner = form.winner;
    if (form.wonWithTrumps !== null) body.won_with_trumps = form.wonWithTrumps;
  }
  if (form.defenderPoints !== null) body.defender_points = form.defenderPoints;
  return kittyVerdict(await call("POST", "/v1/kitty", body, form.lastTrick ? form.lastTrick.leader : null));
}

function settleVerdict(data) {
  return {
    outcome: data.outcome,
    team: teamOf(data.team),
    levelsGained: data.levels_gained,
    newLevels: [data.new_levels.A, data.new_levels.B],
    nextDealer: data.next_dealer,
    gameWon: data.game_won,
    band: { from: data.band.from, to: data.band.to, side: data.band.side, levels: data.band.levels, stepLevels: data.band.step_levels },
    defenderPoints: data.defender_points,
    reasons: reasons(data.reasons),
  };
}

/** POST /v1/settle. `form` = {dealer, defenderPoints, levels: [team 0's, team 1's]}. */
export async function settle(setup, form) {
  const data = await call("POST", "/v1/settle", {
    rules: rulesOf(setup),
    dealer: form.dealer,
    defender_points: form.defenderPoints,
    levels: { A: form.levels[0], B: form.levels[1] },
  });
  return settleVerdict(data);
}

function violation(v) {
  return { trick: v.trick, seat: v.seat, code: v.code, message: v.message };
}

/** POST /v1/hand with a body as recorded (its own rules and trump). */
export async function auditHand(body) {
  const data = await call("POST", "/v1/hand", body);
  return {
    valid: data.valid,
    tricks: data.tricks.map((t) => ({
      index: t.index,
      leader: t.leader,
      expectedLeader: t.expected_leader,
      winner: t.winner,
      points: t.points,
      plays: playsWithRoles(t.plays),
      throw: t.throw ? throwVerdict(t.throw) : null,
      defenderPoints: t.defender_points,
      violations: t.violations.map(violation),
    })),
    trickPoints: data.trick_points,
    defenderPoints: data.defender_points,
    kitty: data.kitty ? kittyVerdict(data.kitty) : null,
    settle: data.settle ? settleVerdict(data.settle) : null,
    firstViolation: data.first_violation ? violation(data.first_violation) : null,
    violations: data.violations.map(violation),
  };
}

/** What an audit body says about its deal: {dealer, hands by seat, trump} (for drawing the table). */
export function recordedDeal(body) {
  const hands = [0, 1, 2, 3].map((s) => (body.hands && body.hands[String(s)]) || []);
  const tricks = (body.tricks || []).map((t) => ({ leader: t.leader, plays: t.plays || [] }));
  return { dealer: body.dealer, hands, tricks, rules: body.rules || "two-deck", trump: body.trump || null };
}
