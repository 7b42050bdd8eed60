// Package corpus loads the askplane.corpus documents the Hugo module
// publishes under askplane/<lang>/, so the Ask backend retrieves from
// exactly the bytes the build pinned in its manifest and nothing else.
//
// A corpus is trusted only after its SHA-256 matches the manifest's
// contentHash: the hash is what evidence packages record as their source
// version, so a corpus that does not match it must never be searched.
// Reads are bounded because a built site folder or URL is still input.
//
// # Versions
//
// Versions 1 and 2 decode to the same [Record]s, so retrieval and
// evidence do not depend on which one a build wrote; version 3, which the
// module writes, carries each page's rendered HTML and decodes to records
// with [Block]s as well. In every version key order is not significant
// (members are matched by name), and the corpus is identified by the
// SHA-256 of its exact bytes.
//
// Version 3 stores pages, not chunks:
//
//	{"protocol":"askplane.corpus","version":3,"siteId":"my-docs","language":"en",
//	 "pages":[{"url":"/docs/x/","title":"X","kind":"page","section":"docs",
//	   "lang":"en","html":"<p>intro</p><h2 id=\"install\">Install</h2>…"}]}
//
// Each page's html is split by a chunker ([Rules]; [Load] uses [Current],
// [chunk.Split] of [chunk.Version]), which belongs to the retrieval
// engine: the same bytes give the same records only for the same chunker
// version, so an engine reads with its own ([LoadWith]). Every chunk with
// text is a record whose Text is the chunker's PlainText of its blocks, whose
// Headings are built from the chunk levels by the version 2 stack rule
// below (an anchored definition term is level [chunk.TermLevel]), whose
// Title has trailing anchor glyphs (its TrimGlyphs) removed, and whose
// ID is [RecordID] of the url and the chunk's Key (its Anchor under
// askplane.chunk/1); a heading the page gives no id is cited by the page's
// url alone. From askplane.chunk/2 on, a page whose title is empty takes
// its first h1's heading (else its first heading's) as its title, and
// that chunk's path is the title alone. A page's lang must be the corpus
// language, and a page the chunker refuses makes the whole corpus invalid.
//
// Version 1 stores each chunk's heading path and trimmed text as the
// templates computed them:
//
//	{"protocol":"askplane.corpus","version":1,"siteId":"my-docs","language":"en",
//	 "pages":[{"url":"/docs/x/","title":"X","chunks":[
//	   {"anchor":"install","headings":["X","Install"],"text":"plain text"}]}]}
//
// Version 2 leaves that work to this reader,
// because it costs the templates far more steps per page:
//
//	{"protocol":"askplane.corpus","version":2,"siteId":"my-docs","language":"en",
//	 "pages":[{"url":"/docs/x/","title":"X","chunks":[
//	   {"level":0,"anchor":"","heading":"","text":" intro text "},
//	   {"level":2,"anchor":"install","heading":"Install ","text":"plain text"},
//	   {"level":3,"anchor":"linux","heading":"Linux","text":""}]}]}
//
// A version 2 reader applies these rules:
//
//   - level is 0 for the text before the page's first heading, and then
//     anchor and heading are ""; otherwise it is the heading's level, 1–6.
//     Only a page's first chunk may have level 0.
//   - heading and text are trimmed with [strings.TrimSpace] (Unicode
//     White_Space), as the version 1 templates trimmed them.
//   - Heading paths come from a stack of open headings. A chunk of level
//     L > 0 closes every open heading of level >= L; its path is the path
//     of the innermost heading still open (or [title] when none is) plus
//     its own trimmed heading, and it is then pushed. A level 0 chunk's
//     path is [title]. This is exactly the headings array of version 1.
//   - A chunk whose trimmed text is empty (or is only whitespace in the
//     protocol's ECMAScript sense, such as U+FEFF) produces no record; it
//     still opens its heading for the paths of the chunks after it.
//   - Anchors are unique among a page's chunks that produce records
//     (url#anchor is the record's id, and must be a safe href).
package corpus
