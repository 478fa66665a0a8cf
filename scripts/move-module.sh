#!/usr/bin/env bash
# Usage: scripts/move-module.sh lib/old/path lib/new/path   (without .ts) — git mv + rewrite "@/lib/old/path" imports.
set -eu
old=$1; new=$2
ext=ts; [ -f "$old.tsx" ] && ext=tsx
mkdir -p "$(dirname "$new")"
git mv "$old.$ext" "$new.$ext"
for q in '"' "'"; do
  git grep -lz -F "$q@/$old$q" -- ':!node_modules' | xargs -0 -r sed -i "s#$q@/$old$q#$q@/$new$q#g" || true
done
echo "$old → $new" >> /work/wt/house-renames.txt
