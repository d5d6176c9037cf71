#!/bin/sh
# docs/check.md's rule table, made from the rule table (`tc5 check rules
# --tsv`) and the seeded-bug catalogue (tests/check/catalogue.txt: the cases
# that show each rule). Compares it with the table between the markers of
# docs/check.md; --write puts it there instead.
# usage: doc_table.sh TC5 ROOT [--write]
set -eu
tc5=$1 root=$2 mode=${3:-}
doc=$root/docs/check.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "| rule | severity | section | the spec | shown by |"
  echo "| --- | --- | --- | --- | --- |"
  "$tc5" check rules --tsv | while IFS='	' read -r id sev sec spec broken fix; do
    tests=$(awk -v r="$id" '!/^#/ && $2 == r { printf "%s`check_%s`", n++ ? ", " : "", $1 }' "$root/tests/check/catalogue.txt")
    # the field bugs (tests/check/field/check_field.sh: one NAME rule:ID ...)
    field=$(awk -v r="rule:$id" '$1 == "one" && $3 == r { printf "%s%s", n++ ? ", " : "", $2 }' "$root/tests/check/field/check_field.sh")
    [ -n "$field" ] && tests="${tests:+$tests, }\`check_field\` ($field)"
    printf '| `%s` | %s | %s | %s | %s |\n' "$id" "$sev" "$sec" "$spec" "${tests:-—}"
  done
} > "$work/table.md"
awk -v t="$work/table.md" '
  /<!-- rules:end -->/ { skip = 0 }
  !skip { print }
  /<!-- rules:begin -->/ { while ((getline l < t) > 0) print l; skip = 1 }
' "$doc" > "$work/doc.md"
if [ "$mode" = --write ]; then cp "$work/doc.md" "$doc"; echo "docs/check.md: table written"; exit 0; fi
if cmp -s "$work/doc.md" "$doc"; then echo "docs/check.md's rule table is up to date"
else diff "$doc" "$work/doc.md" | head -20; echo "docs/check.md's table is stale: tests/check/doc_table.sh TC5 . --write"; exit 1; fi
