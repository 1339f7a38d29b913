/**
 * Staff edit the sleeve options (updateSleeveOptions publishes a whole new set) and the event information
 * (setEventInfo). Both forms are filled from the current values and refilled when another staff member publishes
 * (sleeveOptionsChanged), unless this one is being edited.
 */
import { $ } from './dom.js';

const lines = (text) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/**
 * A thread's colour. SleeveOptions does not list colours; the preview image the API links to is drawn with it
 * (src/pages/option-images.ts), so read it back from there to republish the set unchanged.
 */
async function threadColour(choice) {
  try {
    const svg = await (await fetch(choice.image)).text();
    return /<circle[^>]*fill="(#[0-9a-fA-F]{6})"/u.exec(svg)?.[1] ?? '';
  } catch {
    return '';
  }
}

function parseThreads(text) {
  return lines(text).map((line) => {
    const match = /^(.*?)\s+(#[0-9a-fA-F]{6})$/u.exec(line);
    return match ? { value: match[1], color: match[2] } : { value: line };
  });
}

export function createOptionsEditor({ api }) {
  let editing = false;

  async function fill(options) {
    if (editing) return;
    $('#options-version').textContent = `(version ${options.version})`;
    $('#opt-sizes').value = options.sizes.join('\n');
    $('#opt-fonts').value = options.fonts.join('\n');
    const colours = await Promise.all(options.threadChoices.map(threadColour));
    $('#opt-threads').value = options.threadChoices.map((c, i) => `${c.value} ${colours[i]}`.trim()).join('\n');
    $('#opt-charlimit').value = String(options.charLimit);
  }

  $('#options-form').addEventListener('input', () => { editing = true; });
  $('#options-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const result = $('#options-result');
    const input = {
      sizes: lines($('#opt-sizes').value).map((value) => ({ value })),
      fonts: lines($('#opt-fonts').value).map((value) => ({ value })),
      threads: parseThreads($('#opt-threads').value),
      charLimit: Number($('#opt-charlimit').value),
    };
    try {
      const data = await api.request('UpdateSleeveOptions', { input });
      editing = false;
      await fill(data.updateSleeveOptions);
      result.textContent = `Published: version ${data.updateSleeveOptions.version} is offered now.`;
      result.className = 'ok';
    } catch (error) {
      result.textContent = error.message;
      result.className = 'error';
    }
  });

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
      await fill(data.sleeveOptions);
      $('#info').value = data.eventInfo;
      api.follow('StaffOptionsChanged', {}, { next: (d) => fill(d.sleeveOptionsChanged) });
    },
  };
}
