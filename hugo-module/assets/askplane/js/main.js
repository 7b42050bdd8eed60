// The widget's bundle entry (its esbuild bundle, assets/askplane/dist/main.js,
// written by go generate ./internal/web, is the page's one external module
// script). index.js stays the protocol core's public
// API; this file only boots the widget on the page.
import { boot } from './widget.js';

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => boot(), { once: true });
} else {
  boot();
}
