// fillMarkdown shows an answer's markdown in el as text, with the
// constructs that matter for docs answers made readable: fenced code
// blocks become <pre><code> (a tab stop, as a region that may scroll;
// passed through code, when given, which may wrap them, e.g. with a
// copy button), blank lines separate paragraphs
// (<p>), a single line break inside one is a space (soft wrapping, as
// markdown reads it) except before a list item, and `inline code` (or
// ``code with a ` in it``) becomes <code> (which wraps at its spaces and
// after its slashes). Every piece is set with textContent; nothing is parsed as HTML,
// and nothing else (links, emphasis) is interpreted.

import { make } from './dom.js';

/**
 * @param {HTMLElement} el
 * @param {string} md
 * @param {(pre: HTMLElement) => Node} [code]
 */
export function fillMarkdown(el, md, code = (pre) => pre) {
  el.textContent = '';
  String(md)
    .split(/^```[^\n]*\n?/m)
    .forEach((part, i) => {
      if (i % 2 === 1) {
        // A tab stop: a long line scrolls it sideways (widget.css).
        const pre = make('pre', { tabIndex: 0 });
        pre.appendChild(make('code')).textContent = part.replace(/\n$/, '');
        el.append(code(pre));
        return;
      }
      for (const para of part.split(/\n[ \t]*\n/)) {
        if (para.trim() === '') continue;
        const p = el.appendChild(make('p'));
        para
          .trim()
          .split(/\n(?=[ \t]*(?:[-*+]|\d+[.)])[ \t])/)
          .forEach((line, k) => {
            if (k > 0) p.append(make('br'));
            line
              .replace(/[ \t]*\n[ \t]*/g, ' ')
              // A code span: a run of backticks, its text, the same run
              // (so ``a `b` c`` holds backticks); a lone backtick is text.
              .split(/(`+)(.+?)\1(?!`)/)
              .forEach((s, j) => {
                if (s === '' || j % 3 === 1) return;
                if (j % 3 === 0) return p.append(s);
                // One space each side is padding, as in CommonMark.
                s = s.replace(/^ (.*) $/, '$1');
                // Inline code wraps at its spaces and after its slashes:
                // each part between is a <span> that widget.css keeps
                // whole (inline-block) unless it is wider than a line, so
                // a path breaks between its parts, never after a hyphen.
                const c = p.appendChild(make('code'));
                s.split(/( +)/).forEach((t, n) => c.append(...(n % 2 ? [t] : t.split(/(?<=\/)/).map((x) => make('span', { textContent: x })))));
              });
          });
      }
    });
}
