// fillMarkdown shows an answer's markdown in el as text, with the two
// constructs that matter for commands made readable: fenced code blocks
// become <pre><code> and `inline code` becomes <code>. Every piece is set
// with textContent; nothing is parsed as HTML, and nothing else (links,
// emphasis) is interpreted.
export function fillMarkdown(el, md) {
  el.textContent = '';
  const parts = String(md).split(/^```[^\n]*\n?/m);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const pre = document.createElement('pre');
      const code = pre.appendChild(document.createElement('code'));
      code.textContent = part.replace(/\n$/, '');
      el.append(pre);
      return;
    }
    const text = i > 0 ? part.replace(/^\n/, '') : part;
    text.split('`').forEach((s, j) => {
      if (s === '') return;
      if (j % 2 === 1) el.append(Object.assign(document.createElement('code'), { textContent: s }));
      else el.append(s);
    });
  });
  // A trailing newline inside pre-wrap text shows as an empty line.
  const last = el.lastChild;
  if (last && last.nodeType === 3) last.data = last.data.replace(/\s+$/, '');
}
