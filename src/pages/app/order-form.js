/**
 * The ordering form: the choices offered now (each tile drawn from the option's own data: a thread's colour, a
 * font's family), a live preview of the sleeve as it will be stitched, and the rules of document 1 §2 shown while
 * the user types (a character counter against charLimit, the characters that cannot be stitched, the name and
 * email rules). The rules are those of rules.js, the server's own kept equal by test; the drawings are
 * sleeve-drawing.js, the server's own for /preview.svg.
 */
import { $, createPausedAnnouncer, h, writeSpelled } from './dom.js';
import { emailProblem, nameProblem, refusedCharacters, STITCH_TEXT_CHARACTERS, stitchTextProblem } from './rules.js';
import { choiceTileSvg, previewLabel, sleevePreviewSvg, svgDataUrl } from './sleeve-drawing.js';

const KINDS = [
  { key: 'size', list: 'sizeChoices', box: '#sizes' },
  { key: 'font', list: 'fontChoices', box: '#fonts' },
  { key: 'thread', list: 'threadChoices', box: '#threads' },
];

const selected = (key) => document.querySelector(`input[name="${key}"]:checked`)?.value ?? null;

function choiceElement(key, choice, checked) {
  return h('label', { class: 'choice' },
    h('input', { type: 'radio', name: key, value: choice.value, checked }),
    h('img', { src: svgDataUrl(choiceTileSvg(key, choice)), alt: '', width: 240, height: 130 }),
    h('span', {}, choice.value));
}

/** "Choose a size and a thread." for the kinds still missing, or '' when none is. */
function missingChoicesSentence(missing) {
  const list = missing.map((k) => `a ${k}`);
  return missing.length ? `Choose ${[list.slice(0, -1).join(', '), list.at(-1)].filter(Boolean).join(' and ')}.` : '';
}

/** The picture of the sleeve for these values, drawn with the offered choices' looks (the same drawing as /preview.svg). */
export function previewFor(options, values) {
  const look = (list, value) => options?.[list].find((c) => c.value === value) ?? {};
  return sleevePreviewSvg({
    text: values.stitchText ?? '',
    size: values.size ?? '',
    font: values.font ?? '',
    thread: values.thread ?? '',
    family: look('fontChoices', values.font).family,
    color: look('threadChoices', values.thread).color ?? (values.thread ? undefined : '#d8dde6'),
  });
}

/** A person-friendly sentence for a stitch text the server would refuse, or null. */
function stitchMessage(text, charLimit) {
  if (!stitchTextProblem(text, charLimit)) return null;
  if (text === '') return 'Type the text to stitch.';
  const refused = refusedCharacters(text);
  if (refused.length) return `These characters cannot be stitched: ${refused.map((c) => (c === ' ' ? 'space' : `“${c}”`)).join(', ')}.`;
  if (!/^[A-Za-z0-9]/u.test(text)) return 'Start with a letter or a digit.';
  return `That is ${text.length} characters; the limit is ${charLimit}.`;
}

/**
 * The same, as said to a screen reader after typing pauses: over the limit without the count, which the counter
 * carries, so typing on past the limit is not a new sentence per character.
 */
const spokenStitchMessage = (message, charLimit) => (message?.startsWith('That is ') ? `Longer than the limit of ${charLimit} characters.` : message ?? '');

/**
 * The choice groups the choice sentence names: their radios invalid and described by it until chosen, so a user
 * who comes back to a group later hears why (the sentence was said once, on submit).
 */
function markChoices() {
  const said = $('#choice-error').textContent !== '';
  for (const kind of KINDS) {
    const atFault = said && !selected(kind.key);
    for (const radio of document.querySelectorAll(`input[name="${kind.key}"]`)) {
      if (atFault) {
        radio.setAttribute('aria-invalid', 'true');
        radio.setAttribute('aria-describedby', 'choice-error');
      } else {
        radio.removeAttribute('aria-invalid');
        radio.removeAttribute('aria-describedby');
      }
    }
  }
}

export function createOrderForm({ onReview }) {
  let options = null;
  const input = { stitchText: $('#stitchText'), name: $('#name'), email: $('#email') };
  const touched = new Set();
  /** #stitch-error shows the problem at once; this live region says it once typing pauses (dom.js). */
  const stitchSaid = createPausedAnnouncer($('#stitch-said'));

  const problems = {
    stitchText: () => stitchMessage(input.stitchText.value, options.charLimit),
    name: () => nameProblem(input.name.value),
    email: () => emailProblem(input.email.value),
  };

  function check(field, force = false) {
    const text = input.stitchText.value;
    if (field === 'stitchText') {
      $('#stitch-count').textContent = `${text.length} of ${options.charLimit} characters`;
      $('#stitch-count').classList.toggle('over', text.length > options.charLimit);
    }
    // An empty field is not an error until the user has left it or tries to go on.
    const shown = force || touched.has(field) || (field === 'stitchText' && text !== '');
    const problem = shown ? problems[field]() : null;
    $(`#${field === 'stitchText' ? 'stitch' : field}-error`).textContent = problem ?? '';
    input[field].setAttribute('aria-invalid', problem ? 'true' : 'false');
    return problem;
  }

  let drawn = '';
  function updatePreview() {
    const values = { size: selected('size'), font: selected('font'), thread: selected('thread'), stitchText: input.stitchText.value };
    const svg = previewFor(options, values);
    if (svg !== drawn) {
      drawn = svg;
      // The aside beside the form on a wide screen; under the text field on a phone, where the typing happens.
      for (const image of [$('#preview-image'), $('#preview-image-inline')]) {
        image.src = svgDataUrl(svg);
        image.alt = previewLabel({ ...values, text: values.stitchText, size: values.size ?? '', font: values.font ?? '', thread: values.thread ?? '' });
      }
    }
    writeSpelled($('#preview-spelled'), input.stitchText.value);
    // The sentence asking for the choices still missing follows each choice made, and goes once all are.
    if ($('#choice-error').textContent) $('#choice-error').textContent = missingChoicesSentence(KINDS.filter((k) => !selected(k.key)).map((k) => k.key));
    markChoices();
  }

  /** Shows a new set of options; answers whether a value the user had chosen was withdrawn. */
  function setOptions(next) {
    // The subscription's first event repeats what the page just read: drawing it again would move focus away.
    if (JSON.stringify(next) === JSON.stringify(options)) return false;
    const focused = document.activeElement?.matches?.('.choice input') ? document.activeElement : null;
    const withdrawn = [];
    for (const kind of KINDS) {
      const current = selected(kind.key);
      if (current && !next[kind.list].some((c) => c.value === current)) withdrawn.push(`${kind.key} ${current}`);
      $(kind.box).replaceChildren(...next[kind.list].map((c) => choiceElement(kind.key, c, c.value === current)));
    }
    options = next;
    if (focused) document.querySelector(`input[name="${focused.name}"][value="${CSS.escape(focused.value)}"]`)?.focus();
    $('#stitch-help').textContent = `Up to ${next.charLimit} characters: ${STITCH_TEXT_CHARACTERS}.`;
    $('#withdrawn').textContent = withdrawn.length ? `No longer offered: ${withdrawn.join(', ')}. Please choose again.` : '';
    check('stitchText');
    updatePreview();
    return withdrawn.length > 0 || (input.stitchText.value !== '' && problems.stitchText() !== null);
  }

  /** A field the server refused (createOrder's ApiError `field`): show its sentence there. */
  function showServerError(field, message) {
    const target = field === 'stitchText' ? 'stitch' : field;
    const element = $(`#${target}-error`) ?? $('#choice-error');
    element.textContent = message;
    (input[field] ?? document.querySelector(`input[name="${field}"]`) ?? $('#order-form'))?.focus();
  }

  for (const field of Object.keys(input)) {
    input[field].addEventListener('input', () => {
      const problem = check(field);
      if (field === 'stitchText') stitchSaid.update(spokenStitchMessage(problem, options.charLimit));
      updatePreview();
    });
    input[field].addEventListener('blur', () => {
      if (input[field].value !== '') touched.add(field);
      check(field);
      if (field === 'stitchText') stitchSaid.flush();
    });
  }
  $('#order-form').addEventListener('change', updatePreview);
  /**
   * Checks the form and, when nothing is missing or refused, goes on to the confirmation (onReview); else focus goes
   * to the first field at fault. Answers whether it went on. "Review my order", and a reload on the confirmation.
   */
  function review() {
    const missing = KINDS.filter((k) => !selected(k.key)).map((k) => k.key);
    $('#choice-error').textContent = missingChoicesSentence(missing);
    markChoices();
    const invalid = Object.keys(input).filter((field) => check(field, true));
    const atFault = missing.length ? document.querySelector(`input[name="${missing[0]}"]`) ?? $('#choice-error') : input[invalid[0]];
    if (atFault) {
      atFault.focus();
      return false;
    }
    onReview({
      size: selected('size'), font: selected('font'), thread: selected('thread'),
      stitchText: input.stitchText.value, name: input.name.value.trim(), email: input.email.value.trim(),
    });
    return true;
  }
  $('#order-form').addEventListener('submit', (event) => {
    event.preventDefault();
    review();
  });

  /** The preview of `values` (the confirmation's picture): the same drawing as the live one and as /preview.svg. */
  const previewSvg = (values) => previewFor(options, values);

  /** What the form holds now, checked or not: kept across a reload (order-app.js). */
  const values = () => ({
    size: selected('size'), font: selected('font'), thread: selected('thread'),
    stitchText: input.stitchText.value, name: input.name.value, email: input.email.value,
  });

  /** Puts `saved` back once the options are shown; a choice no longer offered stays unchosen. */
  function restore(saved) {
    for (const field of Object.keys(input)) if (typeof saved?.[field] === 'string') input[field].value = saved[field];
    for (const kind of KINDS) {
      const value = saved?.[kind.key];
      const choice = typeof value === 'string' && document.querySelector(`input[name="${kind.key}"][value="${CSS.escape(value)}"]`);
      if (choice) choice.checked = true;
    }
    check('stitchText');
    updatePreview();
  }

  /** Empties the form, its sentences too: the orders saved on a shared device were forgotten, for the next attendee. */
  function clear() {
    $('#order-form').reset();
    touched.clear();
    for (const id of ['#choice-error', '#stitch-error', '#name-error', '#email-error']) $(id).textContent = '';
    stitchSaid.clear();
    for (const field of Object.keys(input)) input[field].setAttribute('aria-invalid', 'false');
    check('stitchText');
    updatePreview();
  }

  return { setOptions, showServerError, previewSvg, values, restore, review, clear };
}
