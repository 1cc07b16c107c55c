// The image generation agent (docs/product.md#the-image-agent): set a Gemini key (typed, or one of
// the owner's saved keys), describe an image, generate and download it; upload an image and
// describe edits. Calls /p/{token}/keys and /p/{token}/images on the gateway, which calls Gemini.
'use strict';

(function () {
  const { element } = window.Agentloom;
  const { base, workspace, showNotice } = window.Agentloom.previewPage();
  const facts = document.getElementById('facts');

  // Sidebar: the key. A typed key is sent with each request and never stored.
  const keyLabel = element('label', { htmlFor: 'api-key', textContent: 'Gemini API key' });
  const keyInput = element('input', {
    id: 'api-key',
    type: 'password',
    autocomplete: 'off',
    placeholder: 'AIza…',
  });
  const savedLabel = element('label', { htmlFor: 'saved-key', textContent: 'Or a saved key' });
  const savedSelect = element('select', { id: 'saved-key' });
  savedSelect.append(element('option', { value: '', textContent: 'None (use the key above)' }));
  facts.after(keyLabel, keyInput, savedLabel, savedSelect);

  // Step 2: describe and generate.
  const generateCard = card('Describe an image', 'Describe what you want to see, then run.');
  const prompt = element('textarea', { id: 'prompt', rows: 3, maxLength: 4000 });
  const generate = element('button', {
    type: 'button',
    className: 'primary',
    textContent: 'Generate image',
  });
  generateCard.append(label('prompt', 'Description'), prompt, actions(generate));

  // Step 3: upload an image and describe edits.
  const editCard = card(
    'Edit an image',
    'Upload an image (for example one you downloaded above) and describe the changes.',
  );
  const upload = element('input', {
    id: 'upload',
    type: 'file',
    accept: 'image/png,image/jpeg,image/webp',
  });
  const edits = element('textarea', { id: 'edits', rows: 2, maxLength: 4000 });
  const apply = element('button', {
    type: 'button',
    className: 'primary',
    textContent: 'Apply edits',
  });
  editCard.append(label('upload', 'Image'), upload, label('edits', 'Edits'), edits, actions(apply));

  const result = element('section', {
    className: 'card result',
    'aria-label': 'Result',
    hidden: true,
  });
  workspace.append(generateCard, editCard, result);

  generate.addEventListener('click', () => run(prompt.value, null, generate));
  apply.addEventListener('click', () => run(edits.value, upload.files[0] ?? null, apply));
  void loadSavedKeys();

  async function loadSavedKeys() {
    const response = await fetch(`${base}keys`);
    if (!response.ok) return;
    for (const key of await response.json()) {
      savedSelect.append(
        element('option', {
          value: key.id,
          textContent: `${key.name ?? 'Gemini key'} (${key.masked})`,
        }),
      );
    }
  }

  async function run(description, image, button) {
    const text = description.trim();
    if (!text) return showNotice('Describe the image first.');
    if (!savedSelect.value && !keyInput.value.trim())
      return showNotice('Set your Gemini API key first.');
    const body = new FormData();
    body.set('prompt', text);
    if (savedSelect.value) body.set('api_key_id', savedSelect.value);
    else body.set('api_key', keyInput.value.trim());
    if (image) body.set('image', image);
    button.disabled = true;
    const label = button.textContent;
    button.textContent = 'Working…';
    try {
      const response = await fetch(`${base}images`, { method: 'POST', body });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.detail || 'The image could not be made.');
      show(answer);
      document.getElementById('notice').hidden = true;
    } catch (error) {
      showNotice(error.message);
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  }

  function show(answer) {
    result.replaceChildren(element('h2', { textContent: 'Result' }));
    if (answer.text) result.append(element('p', { textContent: answer.text }));
    answer.images.forEach((image, index) => {
      const source = `data:${image.media_type};base64,${image.data}`;
      const extension = image.media_type.split('/')[1] || 'png';
      result.append(
        element('img', { src: source, alt: `Generated image ${index + 1}` }),
        actions(
          element('a', {
            className: 'button',
            href: source,
            download: `agentloom-image-${index + 1}.${extension}`,
            textContent: 'Download image',
          }),
        ),
      );
    });
    result.hidden = false;
    result.scrollIntoView({ block: 'start' });
  }

  function card(title, hint) {
    const section = element('section', { className: 'card' });
    section.append(
      element('h2', { textContent: title }),
      element('p', { className: 'subtitle', textContent: hint }),
    );
    return section;
  }

  function label(forId, text) {
    return element('label', { htmlFor: forId, textContent: text });
  }

  function actions(...children) {
    const row = element('div', { className: 'actions' });
    row.append(...children);
    return row;
  }
})();
