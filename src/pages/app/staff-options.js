/**
 * Staff edit the sleeve options (updateSleeveOptions publishes a whole new set) and the event information
 * (setEventInfo). Both forms are filled from the current values and refilled when another staff member publishes
 * (sleeveOptionsChanged), unless this one is being edited. A publish names the version it was edited from: when
 * another was published meanwhile the server refuses it, and the form says what is offered now, keeping the edits.
 */
import { $ } from './dom.js';

const lines = (text) => text.split('\n').map((l) => l.trim()).filter(Boolean);

function parseThreads(text) {
  return lines(text).map((line) => {
    const match = /^(.*?)\s+(#[0-9a-fA-F]{6})$/u.exec(line);
    return match ? { value: match[1], color: match[2] } : { value: line };
  });
}

/**
 * Options as data (docs/ordering.md#options-as-data): each thread's colour and each font's family come with the
 * options themselves, so the form shows and republishes them as they are, never recovered from a picture.
 */
export function createOptionsEditor({ api }) {
  let editing = false;
  /** The fonts as last read: a font kept in the list is republished with its family. */
  let families = new Map();
  /** The version the form was filled from (or, after a refusal, the one it now knowingly replaces). */
  let baseVersion = null;

  function fill(options) {
    if (editing) return;
    baseVersion = options.version;
    $('#options-version').textContent = `(version ${options.version})`;
    $('#opt-sizes').value = options.sizes.join('\n');
    families = new Map(options.fontChoices.map((c) => [c.value.toLowerCase(), c.family]));
    $('#opt-fonts').value = options.fontChoices.map((c) => c.value).join('\n');
    $('#opt-threads').value = options.threadChoices.map((c) => `${c.value} ${c.color ?? ''}`.trim()).join('\n');
    $('#opt-charlimit').value = String(options.charLimit);
  }

  $('#options-form').addEventListener('input', () => { editing = true; });
  $('#options-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const result = $('#options-result');
    const input = {
      sizes: lines($('#opt-sizes').value).map((value) => ({ value })),
      fonts: lines($('#opt-fonts').value).map((value) => {
        const family = families.get(value.toLowerCase());
        return family ? { value, family } : { value };
      }),
      threads: parseThreads($('#opt-threads').value),
      charLimit: Number($('#opt-charlimit').value),
      baseVersion,
    };
    try {
      const data = await api.request('UpdateSleeveOptions', { input });
      editing = false;
      fill(data.updateSleeveOptions);
      result.textContent = `Published: version ${data.updateSleeveOptions.version} is offered now.`;
      result.className = 'ok';
      $('#opt-charlimit').removeAttribute('aria-invalid');
    } catch (error) {
      result.textContent = error.field === 'baseVersion' ? await publishedMeanwhile() : error.message;
      result.className = 'error';
      // The one field a refusal names that is a single input: marked, and focused, so the fix starts there.
      if (error.field === 'charLimit') { $('#opt-charlimit').setAttribute('aria-invalid', 'true'); $('#opt-charlimit').focus(); }
    }
  });

  /**
   * Another staff member published while this form was edited: what is offered now, in words, beside the edits still
   * in the form; publishing again replaces that version knowingly.
   */
  async function publishedMeanwhile() {
    const { sleeveOptions: now } = await api.request('StaffOptions');
    baseVersion = now.version;
    $('#options-version').textContent = `(editing over version ${now.version})`;
    return `Version ${now.version} was published while you edited this form. Offered now: sizes ${now.sizes.join(', ')}; ` +
      `fonts ${now.fontChoices.map((c) => c.value).join(', ')}; threads ${now.threadChoices.map((c) => c.value).join(', ')}; ` +
      `up to ${now.charLimit} characters. Your changes are still here: check them against it, then publish again to replace version ${now.version}.`;
  }

  $('#info-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const result = $('#info-result');
    try {
      await api.request('SetEventInfo', { text: $('#info').value });
      result.textContent = 'Saved: attendees and agents see the new text now.';
      result.className = 'ok';
    } catch (error) {
      result.textContent = error.message;
      result.className = 'error';
    }
  });

  return {
    async start() {
      const data = await api.request('StaffOptions');
      fill(data.sleeveOptions);
      $('#info').value = data.eventInfo;
      api.follow('StaffOptionsChanged', {}, { next: (d) => fill(d.sleeveOptionsChanged) });
    },
  };
}
