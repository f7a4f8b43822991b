"""Small statistics shared by the scripts: nearest-rank percentiles and
Student-t confidence intervals of a mean over seeds."""

import math

# Student t, two-sided 95 %, by degrees of freedom (beyond 30: 1.96).
T95 = [None, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
       2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
       2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def pct(values, q):
    """Nearest-rank percentile q (0-100); None for no values."""
    v = sorted(values)
    if not v:
        return None
    return v[max(1, math.ceil(q / 100 * len(v))) - 1]


def ci95(values):
    """(mean, half-width of the 95 % confidence interval of the mean, n) over
    the values that are not None; the half-width is None for fewer than two."""
    v = [x for x in values if x is not None]
    if not v:
        return None, None, 0
    m = sum(v) / len(v)
    if len(v) < 2:
        return m, None, len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    t = T95[len(v) - 1] if len(v) - 1 < len(T95) else 1.96
    return m, t * sd / math.sqrt(len(v)), len(v)
