/**
 * The pay page's card form before anything is sent (pay.js sends it): the card as the vault takes it, what is wrong
 * with it in the form's own words, and each field at fault marked and described by its own error under it. One line
 * for every problem, describing every field, read all four messages at each field (an accessibility review).
 */
const $ = (id) => document.getElementById(id);

/** The vault's field names → the form's inputs (the expiry's one input holds month and year). */
export const CARD_INPUTS = { cardNumber: 'card-number', expirationMonth: 'card-expiry', expirationYear: 'card-expiry', cardHolderName: 'card-name', cvc: 'card-cvc' };
export const CARD_FIELDS = [...new Set(Object.values(CARD_INPUTS))];

/** Each input as a sentence names it ("Check the card number and expiry."). */
const INPUT_WORDS = { 'card-number': 'card number', 'card-expiry': 'expiry', 'card-cvc': 'security code', 'card-name': 'name on the card' };

/** Marks a card field at fault with `message` under it and describing it, or no longer at fault (no message). */
export function markCardField(id, message) {
  $(`${id}-error`).textContent = message || '';
  if (message) { $(id).setAttribute('aria-invalid', 'true'); $(id).setAttribute('aria-describedby', `${id}-error`); }
  else { $(id).removeAttribute('aria-invalid'); $(id).removeAttribute('aria-describedby'); }
}

/** The vault's field names, as the form's labels say them, for a message that names one. */
const FIELD_WORDS = { cardNumber: 'card number', expirationMonth: 'expiry month', expirationYear: 'expiry year', cardHolderName: 'name on the card', cvc: 'security code' };
export const inWords = (message) => {
  const said = message.replace(/\b(cardNumber|expirationMonth|expirationYear|cardHolderName|cvc)\b/g, (name) => FIELD_WORDS[name]);
  return said.charAt(0).toUpperCase() + said.slice(1);
};

/**
 * What the form can tell before sending anything: [input id, what to do about it] for each field at fault. An expiry
 * typed as MM/YY whose month is not a month says so: "Enter the expiry as MM/YY" repeated the format just followed.
 */
export function cardProblems(card) {
  const problems = [];
  if (!/^\d{10,19}$/.test(card.cardNumber)) problems.push(['card-number', 'Enter the card number, 10 to 19 digits.']);
  // readCard leaves the year 0 only when the expiry is not in the MM/YY form at all.
  if (card.expirationYear === 0) problems.push(['card-expiry', 'Enter the expiry as MM/YY.']);
  else if (!(card.expirationMonth >= 1 && card.expirationMonth <= 12)) problems.push(['card-expiry', 'The expiry month must be 01 to 12.']);
  if (!/^\d{3,4}$/.test(card.cvc)) problems.push(['card-cvc', 'Enter the security code, 3 or 4 digits.']);
  if (!card.cardHolderName) problems.push(['card-name', 'Enter the name on the card.']);
  return problems;
}

/** The line above the buttons for `problems`: which fields to check, each field saying why under it. */
export function problemsSentence(problems) {
  const names = problems.map(([id]) => INPUT_WORDS[id]);
  return `Check the ${[names.slice(0, -1).join(', '), names.at(-1)].filter(Boolean).join(' and ')}.`;
}

/** The card as typed, in the vault's fields. */
export function readCard() {
  const exp = $('card-expiry').value.replace(/\s/g, '').match(/^(\d{1,2})\/?(\d{2}|\d{4})$/);
  return {
    cardNumber: $('card-number').value.replace(/[\s-]/g, ''),
    expirationMonth: exp ? Number(exp[1]) : 0,
    expirationYear: exp ? (exp[2].length === 2 ? 2000 + Number(exp[2]) : Number(exp[2])) : 0,
    cardHolderName: $('card-name').value.trim(),
    cvc: $('card-cvc').value.trim(),
  };
}
