# Paired comparison of two tools' runs: reads one pair per line, "A B" (A = jperf, B = perftest; a
# pair with a missing or non-positive value is skipped) and prints one line:
#   n median lo hi coverage wins
# n = usable pairs; median = median of the ratios A/B; lo, hi = a distribution-free confidence
# interval for that median (the order statistics of the sign test: ranks k and n+1-k, k the largest
# with P(Bin(n, 1/2) < k) <= alpha/2); coverage = its exact confidence in percent; wins = pairs where
# A is better (BETTER=higher: A > B; lower: A < B). With fewer than 6 pairs no 95 % interval exists:
# lo, hi and coverage are "-". With no pair at all: "0 - - - - 0".
#   awk -v BETTER=lower [-v ALPHA=0.05] -f paired-ratio.awk pairs.txt
function binom_cdf_below(k, n,    i, c, sum) { # P(X < k), X ~ Bin(n, 1/2)
  sum = 0; c = 1
  for (i = 0; i < k; i++) { sum += c; c = c * (n - i) / (i + 1) }
  return sum / 2 ^ n
}
BEGIN { if (ALPHA == "") ALPHA = 0.05; if (BETTER != "higher" && BETTER != "lower") { print "BETTER must be higher or lower" > "/dev/stderr"; bad = 1; exit 2 } }
NF >= 2 && $1 + 0 > 0 && $2 + 0 > 0 {
  r[++n] = $1 / $2
  if ((BETTER == "higher" && $1 + 0 > $2 + 0) || (BETTER == "lower" && $1 + 0 < $2 + 0)) wins++
}
END {
  if (bad) exit 2 # awk runs END after an exit in BEGIN
  if (n == 0) { print "0 - - - - 0"; exit }
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
  med = (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
  k = 0
  while (k + 1 <= n / 2 && binom_cdf_below(k + 1, n) <= ALPHA / 2) k++
  if (k == 0) { printf "%d %.4f - - - %d\n", n, med, wins; exit }
  printf "%d %.4f %.4f %.4f %.1f %d\n", n, med, r[k], r[n + 1 - k], (1 - 2 * binom_cdf_below(k, n)) * 100, wins
}
