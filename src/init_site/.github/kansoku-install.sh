#!/usr/bin/env bash
# Installs kansoku $KANSOKU_VERSION for the workflows in .github/workflows/:
# the release binary from github.com/$KANSOKU_REPO, checked against the
# SHA-256 published beside it and against its build-provenance attestation
# (`gh attestation verify`), or, where there is no binary for this machine,
# built with `cargo install --locked`. Written by `kansoku init`.
# KANSOKU_RELEASES_URL names another place the releases are served from
# (kansoku's tests serve them from 127.0.0.1).
set -euo pipefail

: "${KANSOKU_VERSION:?set KANSOKU_VERSION, e.g. 0.1.0}"
repo="${KANSOKU_REPO:-}"
dest="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kansoku-install"
mkdir -p "$dest/bin"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) target=x86_64-unknown-linux-gnu ;;
  Linux-aarch64 | Linux-arm64) target=aarch64-unknown-linux-gnu ;;
  Darwin-x86_64) target=x86_64-apple-darwin ;;
  Darwin-arm64) target=aarch64-apple-darwin ;;
  *) target="" ;;
esac

name="kansoku-${KANSOKU_VERSION}-${target}"
releases="${KANSOKU_RELEASES_URL:-https://github.com/${repo}/releases/download}"
url="${releases}/v${KANSOKU_VERSION}/${name}.tar.gz"
if [ -n "$repo" ] && [ -n "$target" ] &&
  curl --fail --silent --show-error --location --output "$dest/$name.tar.gz" "$url"; then
  curl --fail --silent --show-error --location --output "$dest/$name.tar.gz.sha256" "$url.sha256"
  if command -v sha256sum >/dev/null 2>&1; then
    (cd "$dest" && sha256sum --check --strict "$name.tar.gz.sha256")
  else
    (cd "$dest" && shasum --algorithm 256 --check --strict "$name.tar.gz.sha256")
  fi
  if command -v gh >/dev/null 2>&1 && [ -n "${GH_TOKEN:-}" ]; then
    gh attestation verify "$dest/$name.tar.gz" --repo "$repo"
  else
    echo "no gh or GH_TOKEN: the build-provenance attestation is not verified"
  fi
  tar -xzf "$dest/$name.tar.gz" -C "$dest"
  install -m 0755 "$dest/$name/kansoku" "$dest/bin/kansoku"
else
  echo "no release binary of kansoku ${KANSOKU_VERSION} for ${target:-this machine}: building it with cargo"
  if [ -n "$repo" ]; then
    cargo install --locked --root "$dest" --git "https://github.com/${repo}" --tag "v${KANSOKU_VERSION}" kansoku
  else
    cargo install --locked --root "$dest" --version "${KANSOKU_VERSION}" kansoku
  fi
fi

if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dest/bin" >>"$GITHUB_PATH"
fi
"$dest/bin/kansoku" --version
