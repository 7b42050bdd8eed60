package sitetest

// TailwindLayouts is a second test theme, unlike the module's example
// site in every way the corpus reads: the layouts of a utility-class
// theme (a header nav, a sidebar menu, a table of contents beside the
// article) and markup render hooks that move heading ids off the
// headings, as such themes do:
//
//   - h2 carries no id; an empty span inside it does, and a hover
//     permalink ("#", aria-label Permalink) follows the text;
//   - h3 carries no id; an empty anchor right before it does;
//   - h4–h6 carry no id at all (the page cannot be linked there);
//   - code blocks are a pre/code pair with a language class (as a
//     client-side highlighter expects) under a copy button, not Chroma;
//   - tables are wrapped in a scrolling div, with utility classes on
//     every cell.
//
// Pages render .Title in the layout only when they have one, so a page
// without a front-matter title shows its content's first heading.
const TailwindLayouts = `
-- layouts/baseof.html --
<!doctype html>
<html lang="{{ site.Language.Lang }}" class="scroll-smooth">
<head><meta charset="utf-8"><title>{{ with .Title }}{{ . }} · {{ end }}{{ site.Title }}</title></head>
<body class="bg-white text-slate-700 antialiased dark:bg-slate-900">
<header class="sticky top-0 z-40 border-b border-slate-200 backdrop-blur">
  <nav class="mx-auto flex max-w-7xl items-center gap-6 px-4 py-3" aria-label="Main">
    <a class="font-semibold text-sky-600" href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a>
    {{- range site.Sections }}<a class="text-sm hover:text-sky-600" href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}
  </nav>
</header>
<div class="mx-auto flex max-w-7xl gap-8 px-4">
  <aside class="hidden w-64 shrink-0 lg:block">
    <ul class="space-y-2 text-sm">
      {{- range site.RegularPages }}<li><a class="block rounded px-2 py-1 hover:bg-slate-100" href="{{ .RelPermalink }}">{{ .LinkTitle | default .File.ContentBaseName }}</a></li>{{ end }}
    </ul>
  </aside>
  <main class="min-w-0 flex-auto py-10">
    {{- block "main" . }}{{ end }}
  </main>
  <div class="hidden w-56 shrink-0 xl:block">
    <p class="text-xs font-semibold uppercase tracking-wide text-slate-900">On this page</p>
    {{ .TableOfContents }}
  </div>
</div>
<footer class="border-t border-slate-200 py-6 text-center text-xs">Built with Hugo</footer>
{{ partial "askplane/widget.html" . }}
</body>
</html>
-- layouts/home.html --
{{ define "main" }}<article class="prose prose-slate max-w-none dark:prose-invert">{{ with .Title }}<h1 class="text-4xl font-extrabold tracking-tight">{{ . }}</h1>{{ end }}{{ .Content }}</article>{{ end }}
-- layouts/section.html --
{{ define "main" }}<article class="prose prose-slate max-w-none dark:prose-invert">{{ with .Title }}<h1 class="text-4xl font-extrabold tracking-tight">{{ . }}</h1>{{ end }}{{ .Content }}</article>{{ end }}
-- layouts/page.html --
{{ define "main" }}<article class="prose prose-slate max-w-none dark:prose-invert">{{ with .Title }}<h1 class="text-4xl font-extrabold tracking-tight">{{ . }}</h1>{{ end }}{{ .Content }}</article>{{ end }}
-- layouts/_markup/render-heading.html --
{{- if eq .Level 2 -}}
<h2 class="group relative mt-12 scroll-mt-24 text-2xl font-bold text-slate-900"><span id="{{ .Anchor }}" class="absolute -top-24"></span>{{ .Text }}<a class="ml-2 opacity-0 group-hover:opacity-100" href="#{{ .Anchor }}" aria-label="Permalink">#</a></h2>
{{- else if eq .Level 3 -}}
<a id="{{ .Anchor }}"></a>
<h3 class="mt-8 text-xl font-semibold text-slate-900">{{ .Text }}</h3>
{{- else -}}
<h{{ .Level }} class="mt-6 font-semibold text-slate-900">{{ .Text }}</h{{ .Level }}>
{{- end -}}
-- layouts/_markup/render-codeblock.html --
<div class="not-prose relative my-6 rounded-lg bg-slate-900"><button type="button" class="absolute right-2 top-2 text-xs text-slate-400">Copy</button><pre class="overflow-x-auto p-4 text-sm text-slate-50 language-{{ .Type }}"><code class="language-{{ .Type }}">{{ .Inner }}</code></pre></div>
-- layouts/_markup/render-table.html --
<div class="not-prose my-6 overflow-x-auto rounded-lg ring-1 ring-slate-200"><table class="min-w-full divide-y divide-slate-200 text-sm">
<thead class="bg-slate-50">{{ range .THead }}<tr>{{ range . }}<th class="px-3 py-2 text-left font-semibold">{{ .Text }}</th>{{ end }}</tr>{{ end }}</thead>
<tbody class="divide-y divide-slate-100">{{ range .TBody }}<tr>{{ range . }}<td class="px-3 py-2 align-top">{{ .Text }}</td>{{ end }}</tr>{{ end }}</tbody>
</table></div>
`
