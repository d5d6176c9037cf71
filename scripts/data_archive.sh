#!/bin/sh
# The per-release PTX corpora (tests/data/ptx/rel100 and rel90: 21 MiB of PTX, JSON and
# inputs) are committed compressed, as tests/data/ptx/rel100.tar.xz and rel90.tar.xz (2.4 MB
# together), so that the tracked tree stays small (the lent device machine takes a checkout of at
# most 64 MiB). The folders themselves are ignored by git and unpacked from the archives:
# by CMake when it configures (tests/CMakeLists.txt, tc5_unpack_data), by gpu/run.sh before a
# target that reads them, or by hand:
#
#   scripts/data_archive.sh unpack [NAME...]   folder from archive where the archive changed
#                                              (a stamp of its SHA-256 inside the folder)
#   scripts/data_archive.sh pack [NAME...]     archive from folder (after scripts/triton_releases.sh
#                                              wrote into it; it packs what it wrote itself)
#   scripts/data_archive.sh check [NAME...]    exit 1 if a folder differs from its archive
#
# NAME: rel100, rel90 (default: both). The archive is reproducible: GNU tar sorted by name,
# mtime 0, owner 0, xz -9 on one thread, so the same folder packs to the same bytes.
set -eu
cd "$(dirname "$0")/.."
dir=tests/data/ptx
what=${1:-}; [ $# -gt 0 ] && shift
names=${*:-rel100 rel90}
stamp() { sha256sum "$dir/$1.tar.xz" | cut -d' ' -f1; }
case $what in
  unpack)
    for n in $names; do
      [ -f "$dir/$n.tar.xz" ] || { echo "data_archive: no $dir/$n.tar.xz" >&2; exit 2; }
      s=$(stamp "$n")
      if [ "$(cat "$dir/$n/.archive-sha256" 2>/dev/null)" != "$s" ]; then
        rm -rf "$dir/$n"
        tar -xJf "$dir/$n.tar.xz" -C "$dir"
        echo "$s" > "$dir/$n/.archive-sha256"
      fi
    done ;;
  pack)
    for n in $names; do
      [ -d "$dir/$n" ] || { echo "data_archive: no folder $dir/$n" >&2; exit 2; }
      tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --exclude=.archive-sha256 \
          -C "$dir" -cf - "$n" | xz -9 -T1 > "$dir/$n.tar.xz.new"
      mv "$dir/$n.tar.xz.new" "$dir/$n.tar.xz"
      stamp "$n" > "$dir/$n/.archive-sha256"
      echo "data_archive: $dir/$n.tar.xz ($(wc -c < "$dir/$n.tar.xz") bytes)"
    done ;;
  check)
    rc=0
    for n in $names; do
      t=$(mktemp -d)
      tar -xJf "$dir/$n.tar.xz" -C "$t"
      diff -r -x .archive-sha256 "$t/$n" "$dir/$n" > /dev/null || { echo "data_archive: $dir/$n differs from $n.tar.xz (pack it)" >&2; rc=1; }
      rm -rf "$t"
    done
    exit $rc ;;
  *) echo "usage: scripts/data_archive.sh unpack|pack|check [rel100 rel90]" >&2; exit 2 ;;
esac
