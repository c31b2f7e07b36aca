/* A plain backward DP of the classic RISK battle in C: the compiled yardstick of `make bench` (issue 21).
 *
 * P(win)[a][d] for a = 0..N armies able to attack and d = 0..N defenders, one pass over the states in an
 * order where every state is final before it is used (a row at a time, d increasing): what a careful C
 * programmer writes.  Built by bench/compiled.py with the system compiler (`cc -O2`) into a temporary
 * directory.  Usage: backward_dp N REPEATS.  Prints the best time of REPEATS fills in seconds, then the
 * table's entries at (N, N), (N/2, N) and (N, N/2) to 17 digits, for checking against riskmath.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s N REPEATS\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), repeats = atoi(argv[2]);
    if (n < 2 || repeats < 1) {
        fprintf(stderr, "N must be >= 2 and REPEATS >= 1\n");
        return 2;
    }
    /* One roll, by the attacker's losses: p[c][e][i], c attacking dice against e defending dice. */
    double p[4][3][3] = {{{0}}};
    p[1][1][0] = 15.0 / 36; p[1][1][1] = 21.0 / 36;
    p[1][2][0] = 55.0 / 216; p[1][2][1] = 161.0 / 216;
    p[2][1][0] = 125.0 / 216; p[2][1][1] = 91.0 / 216;
    p[2][2][0] = 295.0 / 1296; p[2][2][1] = 420.0 / 1296; p[2][2][2] = 581.0 / 1296;
    p[3][1][0] = 855.0 / 1296; p[3][1][1] = 441.0 / 1296;
    p[3][2][0] = 2890.0 / 7776; p[3][2][1] = 2611.0 / 7776; p[3][2][2] = 2275.0 / 7776;
    size_t width = (size_t)n + 1;
    double *win = malloc(width * width * sizeof *win);
    if (!win) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    double best = 1e300;
    for (int r = 0; r < repeats; r++) {
        double start = now();
        for (int a = 0; a <= n; a++) {
            double *row = win + (size_t)a * width;
            row[0] = a > 0 ? 1.0 : 0.0;
            for (int d = 1; d <= n; d++) {
                if (a == 0) {
                    row[d] = 0.0;
                    continue;
                }
                int c = a < 3 ? a : 3, e = d < 2 ? d : 2, pairs = c < e ? c : e;
                double v = 0.0;
                for (int i = 0; i <= pairs; i++) /* the attacker loses i, the defender pairs - i */
                    v += p[c][e][i] * win[(size_t)(a - i) * width + (size_t)(d - pairs + i)];
                row[d] = v;
            }
        }
        double took = now() - start;
        if (took < best)
            best = took;
    }
    printf("%.9f\n%.17g\n%.17g\n%.17g\n", best, win[(size_t)n * width + n], win[(size_t)(n / 2) * width + n],
           win[(size_t)n * width + n / 2]);
    free(win);
    return 0;
}
