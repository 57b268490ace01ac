# The two latency levels of the emulated lab: under TCG a run's t_typical is drawn from one of two levels
# (e.g. ~20 and ~35 us for write_lat 2 B), per run and for every tool alike, so a median over a few runs
# swings with the draw. This splits every tool's runs of one measure into the two levels and reports
# each tool at each level, so tools can be compared at the same level.
# Reads one run per line, "TOOL VALUE" (VALUE > 0). The split is the one of the pooled values, sorted, that
# leaves the least sum of squared deviations of log(VALUE) within the two groups (2-means in one
# dimension, exact); it is kept only when the slow group's geometric mean is at least RATIO (default 1.3)
# times the fast group's, else every run is one level. Prints
#   split THRESHOLD            (the largest fast value; "-" when there is one level)
#   TOOL NFAST FASTMEDIAN NSLOW SLOWMEDIAN     per tool in order of first appearance ("-" for an empty level)
#   awk [-v RATIO=1.3] -f levels.awk runs.txt
function median(a, n,    i, j, t) {
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
  return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NF >= 2 && $2 + 0 > 0 {
  if (!($1 in seen)) { seen[$1] = 1; order[++tools] = $1 }
  tool[++n] = $1; val[n] = $2 + 0; s[n] = val[n]
}
END {
  if (RATIO == "") RATIO = 1.3
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
  best = -1; cut = 0
  for (k = 1; k < n; k++) { # fast = s[1..k], slow = s[k+1..n]
    sa = 0; qa = 0; sb = 0; qb = 0
    for (i = 1; i <= n; i++) { l = log(s[i]); if (i <= k) { sa += l; qa += l * l } else { sb += l; qb += l * l } }
    cost = (qa - sa * sa / k) + (qb - sb * sb / (n - k))
    if (best < 0 || cost < best) { best = cost; cut = k; ma = sa / k; mb = sb / (n - k) }
  }
  threshold = (cut > 0 && exp(mb - ma) >= RATIO) ? s[cut] : ""
  print "split " (threshold == "" ? "-" : threshold)
  for (t = 1; t <= tools; t++) {
    nf = 0; ns = 0; delete f; delete w
    for (i = 1; i <= n; i++) if (tool[i] == order[t]) {
      if (threshold == "" || val[i] <= threshold) f[++nf] = val[i]; else w[++ns] = val[i]
    }
    printf "%s %d %s %d %s\n", order[t], nf, nf ? sprintf("%.4g", median(f, nf)) : "-", ns, ns ? sprintf("%.4g", median(w, ns)) : "-"
  }
}
