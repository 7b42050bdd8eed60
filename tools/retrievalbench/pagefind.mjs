// Indexes one built Hugo site with Pagefind's Node API and searches the
// written bundle with Pagefind's own search runtime (pagefind.js), run in
// Node: its fetches of the bundle's files are answered from disk.
//
// Usage: node pagefind.mjs PUBLIC QUESTIONS.json BUNDLE_DIR LANG
// Prints one JSON object: {"version":…,"pages":N,"results":[[url,…],…]},
// one list per question, best first, at most 10 URLs each.
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import * as pagefind from "pagefind";

const [publicDir, questionsFile, bundleDir, lang] = process.argv.slice(2);
if (!lang) {
	console.error("usage: node pagefind.mjs PUBLIC QUESTIONS.json BUNDLE_DIR LANG");
	process.exit(2);
}
let dir = path.dirname(fileURLToPath(import.meta.resolve("pagefind")));
while (!(await readFile(path.join(dir, "package.json"), "utf8").catch(() => "")).includes('"name": "pagefind"')) dir = path.dirname(dir);
const version = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")).version;

// Every HTML page of the language: on a multilingual Hugo site the other
// languages live in their own top-level folders, which the caller names
// in ASKPLANE_BENCH_SKIP (comma-separated), along with the askplane/ and
// pagefind/ outputs.
const skip = new Set(["askplane", "pagefind", ...(process.env.ASKPLANE_BENCH_SKIP || "").split(",").filter(Boolean)]);
async function htmlFiles(dir, rel = "") {
	const out = [];
	for (const e of await readdir(dir, { withFileTypes: true })) {
		const r = rel ? rel + "/" + e.name : e.name;
		if (e.isDirectory()) {
			if (!rel && skip.has(e.name)) continue;
			out.push(...(await htmlFiles(path.join(dir, e.name), r)));
		} else if (e.name.endsWith(".html")) {
			out.push(r);
		}
	}
	return out.sort();
}

// Index the page content only (<main>), without the navigation and the
// table of contents every page repeats: what a docs site that adds
// Pagefind would mark with data-pagefind-body.
const { errors, index } = await pagefind.createIndex({ rootSelector: "main", excludeSelectors: ["nav", ".toc", "[data-askplane-site]"], forceLanguage: lang });
if (errors.length) throw new Error("pagefind createIndex: " + errors.join("; "));
let pages = 0;
for (const rel of await htmlFiles(publicDir)) {
	const content = await readFile(path.join(publicDir, rel), "utf8");
	if (!/<main[\s>]/.test(content)) continue; // redirects and fragments
	const url = "/" + rel.replace(/index\.html$/, "");
	const res = await index.addHTMLFile({ url, content });
	if (res.errors.length) throw new Error(`pagefind addHTMLFile ${rel}: ${res.errors.join("; ")}`);
	pages++;
}
const written = await index.writeFiles({ outputPath: bundleDir });
if (written.errors.length) throw new Error("pagefind writeFiles: " + written.errors.join("; "));
await pagefind.close();

// The runtime fetches its entry file, WebAssembly, metadata, index chunks
// and fragments relative to its own URL; Node's fetch has no file:, so
// answer those from disk.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
	const url = new URL(typeof input === "string" ? input : input.url, pathToFileURL(bundleDir + "/"));
	if (url.protocol !== "file:") return realFetch(input, init);
	try {
		return new Response(await readFile(fileURLToPath(url)), { status: 200 });
	} catch {
		return new Response("", { status: 404 });
	}
};
const runtime = await import(pathToFileURL(path.join(bundleDir, "pagefind.js")).href);
await runtime.options({ basePath: pathToFileURL(bundleDir + "/").href });
await runtime.init();

const questions = JSON.parse(await readFile(questionsFile, "utf8")).questions;
const results = [];
for (const q of questions) {
	const search = await runtime.search(q.q);
	const urls = [];
	for (const r of (search?.results ?? []).slice(0, 10)) {
		const data = await r.data();
		urls.push(data.url);
	}
	results.push(urls);
}
process.stdout.write(JSON.stringify({ version, pages, results }) + "\n");
