# Counts SASS instructions of gpu/r2p_mask.cu's timed kernels (cuobjdump
# -sass output): total, R2P, FSEL, ISETP, SHF, LOP3 per mask and masking
# way, printed as the tables of ../shared/spec/sm90-r2p-masking-notes.md.
/Function : / {
  fn = ""
  if (match($0, /attn_scoresILi[0-2]ELb[01]ELb0E/)) {
    s = substr($0, RSTART, RLENGTH)
    fn = substr(s, 15, 1) "," substr(s, 19, 1)
  }
  next
}
fn != "" && /^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+[@A-Z]/ {
  line = $0
  sub(/^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+/, "", line)
  sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
  split(line, w, /[ .;]/)
  op = w[1]
  total[fn]++
  cnt[fn "," op]++
}
END {
  split("no mask,causal,local", name, ",")
  n = split("R2P FSEL ISETP SHF LOP3", ops, " ")
  for (m = 0; m < 3; m++) {
    a = m ",0"; b = m ",1"
    printf "%s:\n| Metric | compare | bitmask (R2P) | Delta |\n|---|---|---|---|\n", name[m + 1]
    d = total[b] - total[a]
    printf "| Total instructions | %d | %d | %+d (%+.1f%%) |\n", total[a], total[b], d, total[a] ? 100 * d / total[a] : 0
    for (i = 1; i <= n; i++)
      printf "| %s | %d | %d | %+d |\n", ops[i], cnt[a "," ops[i]], cnt[b "," ops[i]], cnt[b "," ops[i]] - cnt[a "," ops[i]]
    printf "\n"
  }
}
