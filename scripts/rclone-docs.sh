#!/usr/bin/env bash
# Prepares rclone's documentation site as a Hugo source folder in DEST,
# for the retrieval benchmark: a real docs site with its own theme that
# nobody here wrote. It takes docs/ of github.com/rclone/rclone at the
# pinned version from the Go module proxy (about 19 MB, cached by Go),
# adds testdata/retrieval/rclone/askplane.toml as config/_default/hugo.toml
# (Hugo merges it with the site's own config.json), and puts askplane's
# widget partial before </body> in the theme's base template, as the
# quickstart tells an author to. Build it with hugo --source DEST, or
# run it with askplane dev --site DEST.
#
# Usage: bash scripts/rclone-docs.sh DEST
set -euo pipefail
cd "$(dirname "$0")/.."
version=v1.76.0
dest=${1:?usage: rclone-docs.sh DEST}
dir=$(go mod download -json "github.com/rclone/rclone@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$dir/docs/content" ] || { echo "rclone-docs: no docs/content in $dir" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest"
cp -R "$dir/docs/." "$dest/"
chmod -R u+w "$dest"
mkdir -p "$dest/config/_default"
cp testdata/retrieval/rclone/askplane.toml "$dest/config/_default/hugo.toml"
base="$dest/layouts/_default/baseof.html"
grep -q '^  </body>' "$base" || { echo "rclone-docs: no </body> line in $base" >&2; exit 1; }
sed -i 's#^  </body>#  {{ partial "askplane/widget.html" . }}\n  </body>#' "$base"
