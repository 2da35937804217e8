#!/usr/bin/env bash
# Packages a kansoku release binary, as .github/workflows/release.yml does
# for each target, and as anyone can reproduce here:
#
#   cargo build --release --locked --target x86_64-unknown-linux-gnu
#   .github/release/package.sh x86_64-unknown-linux-gnu
#   (cd dist && sha256sum --check kansoku-*-x86_64-unknown-linux-gnu.tar.gz.sha256)
#
# Writes dist/kansoku-VERSION-TARGET.tar.gz (.zip for Windows), holding the
# directory kansoku-VERSION-TARGET/ with the binary and README.md, and
# beside it dist/kansoku-VERSION-TARGET.tar.gz.sha256 in `sha256sum` form.
# The names are those of [package.metadata.binstall] in Cargo.toml. The
# archive's timestamps are SOURCE_DATE_EPOCH, else the last commit's, its
# owner root and its order sorted, so one binary gives one archive.
# KANSOKU_DIST names another directory than dist/ to write into.
# --check-tag TAG only checks that TAG (v0.1.0) is Cargo.toml's version.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The package's own version: the first `version =` of Cargo.toml, which is
# [package]'s.
version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' Cargo.toml | head -n 1)
if [ -z "$version" ]; then
  echo "package.sh: no version in Cargo.toml" >&2
  exit 1
fi

if [ "${1:-}" = "--check-tag" ]; then
  if [ "${2:-}" != "v$version" ]; then
    echo "package.sh: tag '${2:-}' is not v$version, Cargo.toml's version" >&2
    exit 1
  fi
  exit 0
fi

target="${1:?usage: package.sh TARGET | --check-tag TAG}"
case "$target" in
  *-windows-*) exe=kansoku.exe archive_ext=zip ;;
  *) exe=kansoku archive_ext=tar.gz ;;
esac
binary="${CARGO_TARGET_DIR:-target}/$target/release/$exe"
if [ ! -f "$binary" ]; then
  echo "package.sh: no $binary; build it first: cargo build --release --locked --target $target" >&2
  exit 1
fi

name="kansoku-$version-$target"
archive="$name.$archive_ext"
dist="${KANSOKU_DIST:-dist}"
mkdir -p "$dist"
rm -rf "${dist:?}/$name" "$dist/$archive" "$dist/$archive.sha256"
mkdir "$dist/$name"
cp "$binary" README.md "$dist/$name/"

mtime="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
case "$archive_ext" in
  zip)
    # 7-Zip is on GitHub's Windows runners; zip elsewhere.
    if command -v 7z >/dev/null 2>&1; then
      (cd "$dist" && 7z a -tzip -bso0 "$archive" "$name")
    else
      (cd "$dist" && zip -X -q -r "$archive" "$name")
    fi
    ;;
  tar.gz)
    if tar --version 2>/dev/null | grep -q 'GNU tar'; then
      gnutar=tar
    elif command -v gtar >/dev/null 2>&1; then
      gnutar=gtar
    else
      gnutar=""
    fi
    if [ -n "$gnutar" ]; then
      "$gnutar" --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner \
        --format=gnu -C "$dist" -cf - "$name" | gzip -n -9 >"$dist/$archive"
    else
      # BSD tar (macOS without GNU tar): same contents, the order and
      # times as the file system has them.
      tar -C "$dist" -cf - "$name" | gzip -n -9 >"$dist/$archive"
    fi
    ;;
esac
rm -rf "${dist:?}/${name:?}"

if command -v sha256sum >/dev/null 2>&1; then
  (cd "$dist" && sha256sum "$archive" >"$archive.sha256")
else
  (cd "$dist" && shasum --algorithm 256 "$archive" >"$archive.sha256")
fi
echo "$dist/$archive"
cat "$dist/$archive.sha256"
