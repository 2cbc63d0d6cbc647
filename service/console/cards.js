// Cards for the console: reading notation and drawing faces.
//
// Notation accepted (what a director types): rank then suit (10H, ah, T♠),
// a suit symbol then the rank (♠A, ♥10), the Chinese suit names (黑桃A, 红桃10,
// 梅花3, 方块K), and the jokers (SJ / 小王, BJ / 大王). Everything is turned into
// the service's canonical names (10H, AS, SJ, BJ); anything else is reported as
// not a card, never guessed.

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUITS = ["S", "H", "C", "D"];
export const JOKERS = ["SJ", "BJ"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_NAMES = {
  en: { S: "spades", H: "hearts", C: "clubs", D: "diamonds" },
  zh: { S: "黑桃", H: "红桃", C: "梅花", D: "方块" },
};
const RANK_NAMES_EN = { J: "jack", Q: "queen", K: "king", A: "ace" };

const SUIT_OF = {
  S: "S", H: "H", C: "C", D: "D",
  "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♣": "C", "♧": "C", "♦": "D", "♢": "D",
  黑桃: "S", 红桃: "H", 紅桃: "H", 梅花: "C", 方块: "D", 方塊: "D",
};
const RANK = "(10|[2-9TJQKA])";
const SYMBOL = "([♠♤♥♡♣♧♦♢]|黑桃|红桃|紅桃|梅花|方块|方塊)";
// Jokers first (SJ is the small joker, not a jack of spades written suit first).
const TOKEN = new RegExp(`(大王|小王|BJ|SJ)|${RANK}([SHCD♠♤♥♡♣♧♦♢])|${SYMBOL}${RANK}`, "iy");

function rankName(text) {
  const r = text.toUpperCase();
  return r === "T" ? "10" : r;
}

/** Parse notation → {cards: canonical names, errors: the pieces that are no card}. */
export function parseCards(text) {
  const cards = [];
  const errors = [];
  for (const chunk of String(text || "").split(/[\s,;，、]+/u)) {
    if (!chunk) continue;
    TOKEN.lastIndex = 0;
    let pos = 0;
    while (pos < chunk.length) {
      TOKEN.lastIndex = pos;
      const m = TOKEN.exec(chunk);
      if (!m) {
        errors.push(chunk.slice(pos));
        break;
      }
      if (m[1]) {
        const j = m[1].toUpperCase();
        cards.push(j === "大王" || j === "BJ" ? "BJ" : "SJ");
      } else if (m[2]) {
        cards.push(rankName(m[2]) + SUIT_OF[m[3].toUpperCase()]);
      } else {
        cards.push(rankName(m[5]) + SUIT_OF[m[4]]);
      }
      pos = TOKEN.lastIndex;
    }
  }
  return { cards, errors };
}

/** Cards → the notation the fields show (canonical, space separated). */
export function cardsText(cards) {
  return cards.join(" ");
}

export function isRed(card) {
  return card === "BJ" || card.endsWith("H") || card.endsWith("D");
}

/** The words a screen reader says for a card. */
export function cardLabel(card, lang) {
  if (card === "BJ") return lang === "zh" ? "大王" : "big joker";
  if (card === "SJ") return lang === "zh" ? "小王" : "small joker";
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  if (lang === "zh") return SUIT_NAMES.zh[suit] + rank;
  return `${RANK_NAMES_EN[rank] || rank} of ${SUIT_NAMES.en[suit]}`;
}

export function suitName(suit, lang) {
  return (SUIT_NAMES[lang] || SUIT_NAMES.en)[suit] || suit;
}

const SVG = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** One card face as an SVG element: rank and suit in the corners and the centre,
 * red or black; jokers as a star with 大/小 and "JOKER" (red for the big one). */
export function cardFace(card, lang, extraClass = "") {
  const svg = svgEl("svg", {
    viewBox: "0 0 60 84",
    class: `card ${isRed(card) ? "red" : "black"} ${extraClass}`.trim(),
    role: "img",
    "aria-label": cardLabel(card, lang),
    "data-card": card,
  });
  svg.appendChild(svgEl("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-bg" }));
  if (JOKERS.includes(card)) {
    const big = card === "BJ";
    svg.appendChild(svgEl("text", { x: 7, y: 14, class: "card-joker-side" }, "JOKER"));
    svg.appendChild(svgEl("path", {
      d: "M30 24 L34.7 36.5 L48 37 L37.6 45.2 L41.2 58 L30 50.6 L18.8 58 L22.4 45.2 L12 37 L25.3 36.5 Z",
      class: big ? "card-star big" : "card-star small",
    }));
    svg.appendChild(svgEl("text", { x: 30, y: 76, "text-anchor": "middle", class: "card-joker-name" }, big ? "大王" : "小王"));
    return svg;
  }
  const rank = card.slice(0, -1);
  const symbol = SUIT_SYMBOL[card.slice(-1)];
  svg.appendChild(svgEl("text", { x: 5, y: 19, class: rank === "10" ? "card-rank ten" : "card-rank" }, rank));
  svg.appendChild(svgEl("text", { x: 5, y: 35, class: "card-corner-suit" }, symbol));
  svg.appendChild(svgEl("text", { x: 33, y: 68, "text-anchor": "middle", class: "card-suit" }, symbol));
  return svg;
}

/** Every distinct card, in palette order: spades, hearts, clubs, diamonds (2..A), then jokers. */
export function allCards() {
  const out = [];
  for (const s of SUITS) for (const r of RANKS) out.push(r + s);
  return out.concat(JOKERS);
}

/** Indices of `cards` covered by the multiset `marked` (each marked card once). */
export function markIndices(cards, marked) {
  const want = new Map();
  for (const c of marked) want.set(c, (want.get(c) || 0) + 1);
  const out = new Set();
  cards.forEach((c, i) => {
    const n = want.get(c) || 0;
    if (n > 0) {
      out.add(i);
      want.set(c, n - 1);
    }
  });
  return out;
}

/** `cards` less the multiset `gone` (what a hand holds after playing). */
export function without(cards, gone) {
  const drop = markIndices(cards, gone);
  return cards.filter((_, i) => !drop.has(i));
}
