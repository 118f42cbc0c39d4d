# The image-building functions deploy/build-image (the operator) and deploy/build-postgres-image (the
# database) share: Debian packages unpacked into a cached base layer, deterministic layers, and the
# OCI image layout in a tar (docs/install.md#the-image, #the-database-image). Sourced, not run; the caller sets
# image_tool (its name, for messages), cache (the base layers' directory) and out (its target directory).

log() { echo "$image_tool: $*" >&2; }
die() { echo "$image_tool: $*" >&2; exit 1; }

# A deterministic layer from directory $1: writes $2.tar.gz and $2.diffid (the uncompressed tar's sha256).
# Every tar is written with sorted names, zero times and numeric root ownership.
layer() {
  local dir=$1 name=$2 entries
  mapfile -t entries < <(cd "$dir" && ls -A)
  ((${#entries[@]} > 0)) || die "$dir is empty"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$dir" -cf "$name.tar" "${entries[@]}"
  sha256sum "$name.tar" | cut -d' ' -f1 >"$name.diffid"
  gzip -n -f "$name.tar"
}

# Sets pinned to "package=version" for each package named, with the version apt would install.
pin_packages() {
  local package candidate
  pinned=()
  for package in "$@"; do
    candidate="$(apt-cache policy "$package" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
    [[ -n $candidate && $candidate != "(none)" ]] \
      || die "Debian package $package has no installable version here: run apt-get update"
    pinned+=("$package=$candidate")
  done
}

# dependency_closure EXCLUDED PACKAGE...: sets closure to the Depends/Pre-Depends closure of the
# packages, sorted. Of alternatives it follows the first (of a virtual package: its first provider); it does
# not follow the packages named (first word of a line) in the file EXCLUDED.
dependency_closure() {
  local excluded_file=$1 name
  shift
  local -A seen=() skip=()
  local next queue=("$@")
  while read -r name _; do skip[$name]=1; done < <(grep -v '^\s*\(#\|$\)' "$excluded_file")
  while ((${#queue[@]} > 0)); do
    next=()
    for name in "${queue[@]}"; do seen[$name]=1; done
    while read -r name; do
      if [[ -n $name && -z ${seen[$name]:-} && -z ${skip[$name]:-} ]]; then seen[$name]=1; next+=("$name"); fi
    done < <(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
      --no-enhances "${queue[@]}" 2>/dev/null | awk '
        # One group: a run of "|Depends:" alternatives ended by a "Depends:" line, each virtual one
        # followed by its providers (indented four spaces). The first real package of the group wins.
        function finish() { if (chosen != "") print chosen; chosen = ""; open = 0 }
        /^[^ ]/ { finish(); next }
        /^ [ |](Pre)?Depends: / {
          if (!open) { chosen = ""; open = 1 }
          dep = $2; sub(/:any$/, "", dep)
          if (chosen == "" && dep !~ /^</) chosen = dep
          last = ($1 !~ /^\|/)
          if (last && chosen != "") finish()
          next }
        /^    / { if (open && chosen == "") { chosen = $1; sub(/:any$/, "", chosen) } if (last) finish(); next }
        END { finish() }')
    queue=("${next[@]}")
  done
  mapfile -t closure < <(printf '%s\n' "${!seen[@]}" | sort)
}

# base_layer NAME PREPARE PACKAGE=VERSION...: the base layer unpacked (dpkg-deb -x, no maintainer
# scripts) from the pinned packages, then completed by the function PREPARE, which gets the root
# filesystem's directory. Built once per machine into $cache/NAME-KEY, where KEY covers the package
# versions and the code that makes the layer; sets base to that directory (layer.tar.gz, layer.diffid,
# packages).
base_layer() {
  local name=$1 prepare=$2 work rootfs deb key
  shift 2
  key="$( (printf '%s\n' "$@"; declare -f base_layer layer "$prepare") | sha256sum | cut -c1-16)"
  base="$cache/$name-$key"
  if [[ -s $base/layer.tar.gz && -s $base/layer.diffid ]]; then
    log "base layer: cache hit ($base)"
    return
  fi
  log "base layer: $# packages -> $base"
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/work.XXXXXX")"
  # shellcheck disable=SC2064 # the directory is fixed now
  trap "rm -rf '$work'" EXIT
  mkdir -p "$work/debs" "$work/rootfs"
  (cd "$work/debs" && apt-get download -q "$@" >&2) || die "apt-get download failed for $*"
  for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$work/rootfs"; done
  rootfs="$work/rootfs"
  # What no program of an image reads: documentation, manual pages, translations, iconv's modules.
  rm -rf "$rootfs"/usr/share/{doc,man,info,locale,lintian,bug} "$rootfs"/usr/lib/x86_64-linux-gnu/gconv
  mkdir -p "$rootfs/etc" "$rootfs/tmp" "$rootfs/proc" "$rootfs/dev"
  chmod 1777 "$rootfs/tmp"
  printf 'hosts: files dns\npasswd: files\ngroup: files\n' >"$rootfs/etc/nsswitch.conf"
  printf '127.0.0.1 localhost\n::1 localhost\n' >"$rootfs/etc/hosts"
  "$prepare" "$rootfs"
  # The dynamic linker's cache, as libc6's trigger would write it.
  if command -v ldconfig >/dev/null; then ldconfig -r "$rootfs" 2>/dev/null || true; fi
  layer "$rootfs" "$work/layer"
  mkdir -p "$base.tmp"
  mv "$work/layer.tar.gz" "$work/layer.diffid" "$base.tmp/"
  printf '%s\n' "$@" >"$base.tmp/packages"
  rm -rf "$base" && mv "$base.tmp" "$base"
  rm -rf "$work"
  trap - EXIT
}

# oci_archive CONFIG_TEMPLATE TAG ARCHIVE LAYER...: the OCI image layout (index -> manifest -> config,
# layers) in the tar ARCHIVE, from the layers LAYER.tar.gz/LAYER.diffid (bottom first) and the image
# configuration CONFIG_TEMPLATE with its "diff_ids": [] filled in; TAG is the manifest's ref.name.
# skopeo, podman load, crane and containerd's ctr import read it.
oci_archive() {
  local template=$1 tag=$2 archive=$3 oci="$out/oci" file digest size layers_json=() diff_ids=()
  shift 3
  rm -rf "$oci"
  mkdir -p "$oci/blobs/sha256"
  for file in "$@"; do
    read -r digest size < <(oci_blob "$oci" "$file.tar.gz")
    layers_json+=("{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"sha256:$digest\",\"size\":$size}")
    diff_ids+=("\"sha256:$(cat "$file.diffid")\"")
  done
  grep -q '"diff_ids": \[\]' "$template" || die "$template: no \"diff_ids\": [] to fill in"
  sed "s/\"diff_ids\": \[\]/\"diff_ids\": [$(IFS=,; echo "${diff_ids[*]}")]/" "$template" >"$out/config.json"
  read -r config_digest config_size < <(oci_blob "$oci" "$out/config.json")
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[%s]}' \
    "$config_digest" "$config_size" "$(IFS=,; echo "${layers_json[*]}")" >"$out/manifest.json"
  read -r manifest_digest manifest_size < <(oci_blob "$oci" "$out/manifest.json")
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"%s"}}]}' \
    "$manifest_digest" "$manifest_size" "$tag" >"$oci/index.json"
  printf '{"imageLayoutVersion":"1.0.0"}' >"$oci/oci-layout"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$oci" -cf "$archive" oci-layout index.json blobs
  log "image $tag: manifest sha256:$manifest_digest, $(du -m "$archive" | cut -f1) MB"
}

# Stores file $2 as a blob of the layout in $1; prints "digest size".
oci_blob() {
  local digest size
  digest="$(sha256sum "$2" | cut -d' ' -f1)"
  size="$(stat -c %s "$2")"
  cp "$2" "$1/blobs/sha256/$digest"
  echo "$digest $size"
}
