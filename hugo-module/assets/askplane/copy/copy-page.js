// askplane/copy/copy-page.js: the "Copy page as Markdown" control that
// askplane/copy-page.html draws (off unless an author places it). It shows
// the control, and on a click fetches the page's Markdown twin (same
// origin, so the widget's CSP needs nothing more) and puts it on the
// clipboard, then says so in the button for two seconds.
for (const button of document.querySelectorAll('[data-askplane-copy-page]')) {
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const text = fetch(button.dataset.askplaneCopyPage).then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))));
    try {
      // A ClipboardItem takes the pending text, so the click's activation
      // still counts when the fetch ends (Safari requires it).
      if (window.ClipboardItem && navigator.clipboard.write) {
        await navigator.clipboard.write([new ClipboardItem({ 'text/plain': text.then((t) => new Blob([t], { type: 'text/plain' })) })]);
      } else {
        await navigator.clipboard.writeText(await text);
      }
      button.textContent = button.dataset.askplaneCopied;
    } catch {
      button.textContent = button.dataset.askplaneCopyFailed;
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}
