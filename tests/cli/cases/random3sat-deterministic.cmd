$HTA gen random3sat --vars 6 --clauses 8 --seed 4 && $HTA gen random3sat --vars 6 --clauses 8 --seed 4 -o "$TMP/b" && $HTA gen random3sat --vars 6 --clauses 8 --seed 4 | cmp - "$TMP/b"
