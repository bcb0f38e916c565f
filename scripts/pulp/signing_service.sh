#!/usr/bin/env bash
# Sourced by start.sh (PULP_HOME, LOGS_DIR, PULP_SETTINGS and the venv's PATH set): a metadata
# signing service for the seed's verified repositories, so that their publications carry a
# signed repomd.xml and dnf with repo_gpgcheck=1 accepts them. A GPG key without a passphrase
# under $PULP_HOME/gnupg, and the script pulp_rpm calls to sign (a detached, armored
# signature). Added once; its name is rc-metadata-signer.
ensure_signing_service() {
if [[ ! -f "$PULP_HOME/state/signing-service" ]]; then
  log "adding the metadata signing service rc-metadata-signer"
  gnupg_home="$PULP_HOME/gnupg"
  mkdir -p "$gnupg_home" && chmod 700 "$gnupg_home"
  if ! gpg --homedir "$gnupg_home" --list-secret-keys rc-signer@example.invalid >/dev/null 2>&1; then
    gpg --homedir "$gnupg_home" --batch --gen-key >"$LOGS_DIR/gpg.log" 2>&1 <<'KEY' \
      || { tail -30 "$LOGS_DIR/gpg.log" >&2; die "gpg --gen-key failed"; }
Key-Type: RSA
Key-Length: 2048
Key-Usage: sign
Name-Real: repo-console test metadata signer
Name-Email: rc-signer@example.invalid
Expire-Date: 0
%no-protection
%commit
KEY
  fi
  fingerprint="$(gpg --homedir "$gnupg_home" --with-colons --list-keys rc-signer@example.invalid \
    | awk -F: '$1 == "fpr" {print $10; exit}')"
  mkdir -p "$PULP_HOME/etc"
  cat >"$PULP_HOME/etc/sign-metadata.sh" <<SCRIPT
#!/usr/bin/env bash
# Called by pulp_rpm with the file to sign (repomd.xml); prints what it wrote, as JSON.
set -euo pipefail
export GNUPGHOME="$gnupg_home"
file="\$1"
signature="\$file.asc"
key="\$(cd "\$(dirname "\$file")" && pwd)/public.key"
gpg --batch --armor --export "\$PULP_SIGNING_KEY_FINGERPRINT" >"\$key"
gpg --batch --yes --armor --detach-sign --default-key "\$PULP_SIGNING_KEY_FINGERPRINT" \
  --output "\$signature" "\$file"
printf '{"file": "%s", "signature": "%s", "key": "%s"}\n' "\$file" "\$signature" "\$key"
SCRIPT
  chmod 755 "$PULP_HOME/etc/sign-metadata.sh"
  GNUPGHOME="$gnupg_home" pulpcore-manager add-signing-service rc-metadata-signer \
    "$PULP_HOME/etc/sign-metadata.sh" "$fingerprint" \
    --home "$gnupg_home" >"$LOGS_DIR/signing-service.log" 2>&1 \
    || grep -q "already exists" "$LOGS_DIR/signing-service.log" \
    || { tail -30 "$LOGS_DIR/signing-service.log" >&2; die "add-signing-service failed"; }
  touch "$PULP_HOME/state/signing-service"
fi
}

# Sourced with ensure_signing_service: pulp_deb's release signing service, rc-apt-signer (class
# deb:AptReleaseSigningService), with the same key. pulp_deb calls its script with a
# publication's Release file; the script writes InRelease (clearsigned) and Release.gpg
# (detached) beside it and prints their paths as {"signatures": {"inline", "detached"}}. A
# deb/apt repository whose signing_service is it publishes signed Release files, which apt
# accepts with signed-by=<the key> and no [trusted=yes]. The public key is exported to
# $PULP_HOME/etc/rc-apt-signer.asc for apt. Added once (state/apt-signing-service).
ensure_apt_signing_service() {
if [[ ! -f "$PULP_HOME/state/apt-signing-service" ]]; then
  log "adding the apt release signing service rc-apt-signer"
  gnupg_home="$PULP_HOME/gnupg"
  fingerprint="$(gpg --homedir "$gnupg_home" --with-colons --list-keys rc-signer@example.invalid \
    | awk -F: '$1 == "fpr" {print $10; exit}')"
  [[ -n "$fingerprint" ]] || die "no rc-signer key in $gnupg_home (ensure_signing_service first)"
  gpg --homedir "$gnupg_home" --batch --armor --export "$fingerprint" \
    >"$PULP_HOME/etc/rc-apt-signer.asc"
  cat >"$PULP_HOME/etc/sign-apt-release.sh" <<SCRIPT
#!/usr/bin/env bash
# Called by pulp_deb with a Release file; writes InRelease and Release.gpg beside it.
set -euo pipefail
export GNUPGHOME="$gnupg_home"
release="\$1"
dir="\$(cd "\$(dirname "\$release")" && pwd)"
gpg --batch --yes --default-key "\$PULP_SIGNING_KEY_FINGERPRINT" --clearsign \\
  --output "\$dir/InRelease" "\$release"
gpg --batch --yes --default-key "\$PULP_SIGNING_KEY_FINGERPRINT" --armor --detach-sign \\
  --output "\$dir/Release.gpg" "\$release"
printf '{"signatures": {"inline": "%s", "detached": "%s"}}\n' "\$dir/InRelease" "\$dir/Release.gpg"
SCRIPT
  chmod 755 "$PULP_HOME/etc/sign-apt-release.sh"
  GNUPGHOME="$gnupg_home" pulpcore-manager add-signing-service rc-apt-signer \
    "$PULP_HOME/etc/sign-apt-release.sh" "$fingerprint" \
    --class deb:AptReleaseSigningService \
    --home "$gnupg_home" >"$LOGS_DIR/apt-signing-service.log" 2>&1 \
    || grep -q "already exists" "$LOGS_DIR/apt-signing-service.log" \
    || { tail -30 "$LOGS_DIR/apt-signing-service.log" >&2; die "add-signing-service (apt) failed"; }
  touch "$PULP_HOME/state/apt-signing-service"
fi
}
