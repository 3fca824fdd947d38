$HTA import fsck tests/data/fsck/hadoop3-locations.txt -o "$TMP/i" && $HTA solve "$TMP/i" --algo fsy -o "$TMP/a" >/dev/null && cat "$TMP/a"
