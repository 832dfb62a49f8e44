// Progressive enhancement only: every console page works without this script.
'use strict';

document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-copy-from]');
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy-from'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(() => {
    const label = button.textContent;
    button.textContent = 'Copied';
    setTimeout(() => (button.textContent = label), 2000);
  });
});

document.addEventListener('submit', (event) => {
  const message = event.target.getAttribute('data-confirm');
  if (message && !window.confirm(message)) event.preventDefault();
});

// An element with data-refresh-url shows a value that changes by itself (a webhook endpoint's
// activation): it asks the console's JSON route every few seconds and stops once the value is final.
for (const element of document.querySelectorAll('[data-refresh-url]')) {
  const url = element.getAttribute('data-refresh-url');
  const field = element.getAttribute('data-refresh-field');
  const until = (element.getAttribute('data-refresh-until') || '').split(' ');
  const poll = () => {
    fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((body) => {
        const value = body.data && body.data[field];
        if (typeof value === 'string') {
          element.textContent = value;
          element.setAttribute('data-value', value);
        }
        if (!until.includes(value)) setTimeout(poll, 1500);
      })
      .catch(() => setTimeout(poll, 5000));
  };
  if (!until.includes(element.getAttribute('data-value'))) setTimeout(poll, 1500);
}
