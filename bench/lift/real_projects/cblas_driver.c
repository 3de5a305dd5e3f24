/* Differential driver for GSL's CBLAS (bench/lift/real_projects.py), linked with GSL's cblas sources.
 *
 * Calls the float and double BLAS routines (levels 1-3, both storage orders, every transpose,
 * side, triangle and diagonal, unit and non-unit strides, negative strides) on seeded data of
 * lengths around the rewrite's 32-element threshold, printing every result in %a. GSL's float
 * and double routines share one loop body (cblas/source_*.h, included with BASE = float or
 * double), so a rewrite of that body for one type shows up in the other's results.
 *
 * usage: cblas_driver [REPEAT]   (REPEAT > 1: the level-3 products again, unprinted: the timed run)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cblas.h>

static unsigned long long rng = 0x853c49e6748fea9bULL;
static double urand(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (double)((rng * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static const int lens[] = {1, 7, 31, 32, 33, 100, 257};
#define NLENS (int)(sizeof lens / sizeof lens[0])
static const int incs[] = {1, 2, -1, -3};
#define NINCS (int)(sizeof incs / sizeof incs[0])
static const enum CBLAS_ORDER orders[] = {CblasRowMajor, CblasColMajor};
static const enum CBLAS_TRANSPOSE transes[] = {CblasNoTrans, CblasTrans};
static const enum CBLAS_UPLO uplos[] = {CblasUpper, CblasLower};
static const enum CBLAS_DIAG diags[] = {CblasNonUnit, CblasUnit};
static const enum CBLAS_SIDE sides[] = {CblasLeft, CblasRight};

#define DEFINE_TESTS(T, P)                                                                          \
static void P##fill(T *a, int n) { for (int i = 0; i < n; i++) a[i] = (T)urand(); }                \
static void P##dump(const char *what, const T *a, int n) { /* all bits: values, or a hash */     \
    printf("%s[%d]", what, n);                                                                     \
    if (n > 48) {                                                                                  \
        unsigned long long h = 1469598103934665603ULL;                                             \
        const unsigned char *b = (const unsigned char *)a;                                         \
        for (size_t i = 0; i < n * sizeof(T); i++) { h ^= b[i]; h *= 1099511628211ULL; }           \
        printf(" fnv %016llx %a %a %a\n", h, (double)a[0], (double)a[n / 2], (double)a[n - 1]);    \
        return;                                                                                    \
    }                                                                                              \
    for (int i = 0; i < n; i++) printf("%s%a", i % 8 ? " " : "\n  ", (double)a[i]);                 \
    printf("\n");                                                                                  \
}                                                                                                  \
/* a triangular matrix that is safe to solve with: a strong diagonal */                           \
static void P##tri(T *a, int n, int lda) {                                                         \
    for (int i = 0; i < n; i++)                                                                    \
        for (int j = 0; j < lda; j++) a[i * lda + j] = (T)(urand() * 0.5 / n);                     \
    for (int i = 0; i < n; i++) a[i * lda + i] = (T)(2.0 + urand());                               \
}                                                                                                  \
static void P##level1(void) {                                                                      \
    for (int l = 0; l < NLENS; l++)                                                                \
        for (int ix = 0; ix < NINCS; ix++) {                                                       \
            int n = lens[l], incx = incs[ix], incy = incs[(ix + 1) % NINCS];                        \
            int sx = n * abs(incx), sy = n * abs(incy);                                            \
            T *x = malloc(sx * sizeof(T)), *y = malloc(sy * sizeof(T));                            \
            P##fill(x, sx); P##fill(y, sy);                                                        \
            printf(#P " level1 n=%d incx=%d incy=%d\n", n, incx, incy);                           \
            printf("dot %a asum %a nrm2 %a iamax %d\n", (double)cblas_##P##dot(n, x, incx, y, incy), \
                   (double)cblas_##P##asum(n, x, abs(incx)), (double)cblas_##P##nrm2(n, x, abs(incx)), \
                   (int)cblas_i##P##amax(n, x, abs(incx)));                                        \
            cblas_##P##axpy(n, (T)0.75, x, incx, y, incy); P##dump("axpy", y, sy);                 \
            cblas_##P##scal(n, (T)-1.25, x, abs(incx)); P##dump("scal", x, sx);                    \
            cblas_##P##rot(n, x, incx, y, incy, (T)0.6, (T)0.8); P##dump("rot.x", x, sx); P##dump("rot.y", y, sy); \
            cblas_##P##swap(n, x, incx, y, incy); P##dump("swap.x", x, sx);                        \
            cblas_##P##copy(n, x, incx, y, incy); P##dump("copy", y, sy);                          \
            free(x); free(y);                                                                      \
        }                                                                                          \
}                                                                                                  \
static void P##level2(void) {                                                                      \
    const int dims[][2] = {{5, 3}, {33, 40}, {64, 31}};                                            \
    for (int d = 0; d < 3; d++)                                                                    \
        for (int o = 0; o < 2; o++)                                                                \
            for (int ii = 0; ii < 2; ii++) {                                                       \
                int M = dims[d][0], N = dims[d][1], inc = ii ? -2 : 1;                             \
                int lda = (orders[o] == CblasRowMajor ? N : M) + 3;                                \
                int big = M > N ? M : N, ldt = big + 1;                                            \
                T *A = malloc((size_t)big * (big + 3) * sizeof(T));                               \
                T *S = malloc((size_t)big * ldt * sizeof(T));                                      \
                T *x = malloc(2 * big * sizeof(T)), *y = malloc(2 * big * sizeof(T));              \
                printf(#P " level2 M=%d N=%d order=%d inc=%d\n", M, N, o, inc);                    \
                for (int t = 0; t < 2; t++) {                                                      \
                    P##fill(A, big * (big + 3)); P##fill(x, 2 * big); P##fill(y, 2 * big);         \
                    cblas_##P##gemv(orders[o], transes[t], M, N, (T)0.5, A, lda, x, inc, (T)0.25, y, inc); \
                    P##dump("gemv", y, 2 * big);                                                   \
                }                                                                                  \
                P##fill(A, big * (big + 3));                                                       \
                cblas_##P##ger(orders[o], M, N, (T)1.5, x, inc, y, inc, A, lda);                   \
                P##dump("ger", A, big * (big + 3));                                                \
                for (int u = 0; u < 2; u++) {                                                      \
                    P##fill(S, big * ldt); P##fill(x, 2 * big); P##fill(y, 2 * big);               \
                    cblas_##P##symv(orders[o], uplos[u], N, (T)0.5, S, ldt, x, inc, (T)2.0, y, inc); \
                    P##dump("symv", y, 2 * big);                                                   \
                    cblas_##P##syr(orders[o], uplos[u], N, (T)-0.5, x, inc, S, ldt);               \
                    P##dump("syr", S, big * ldt);                                                  \
                    cblas_##P##syr2(orders[o], uplos[u], N, (T)0.25, x, inc, y, inc, S, ldt);      \
                    P##dump("syr2", S, big * ldt);                                                 \
                    for (int t = 0; t < 2; t++)                                                    \
                        for (int g = 0; g < 2; g++) {                                              \
                            P##tri(S, big, ldt); P##fill(x, 2 * big);                              \
                            cblas_##P##trmv(orders[o], uplos[u], transes[t], diags[g], N, S, ldt, x, inc); \
                            P##dump("trmv", x, 2 * big);                                           \
                            cblas_##P##trsv(orders[o], uplos[u], transes[t], diags[g], N, S, ldt, x, inc); \
                            P##dump("trsv", x, 2 * big);                                           \
                        }                                                                          \
                }                                                                                  \
                free(A); free(S); free(x); free(y);                                                \
            }                                                                                      \
}                                                                                                  \
static void P##level3(int print) {                                                                 \
    const int dims[][3] = {{4, 5, 3}, {33, 40, 35}, {64, 32, 65}};                                 \
    for (int d = 0; d < 3; d++) {                                                                  \
        int M = dims[d][0], N = dims[d][1], K = dims[d][2];                                        \
        int big = M > N ? M : N; big = big > K ? big : K;                                          \
        int ld = big + 2;                                                                          \
        T *A = malloc((size_t)ld * ld * sizeof(T)), *B = malloc((size_t)ld * ld * sizeof(T));      \
        T *C = malloc((size_t)ld * ld * sizeof(T));                                                \
        for (int o = 0; o < 2; o++) {                                                              \
            if (print) printf(#P " level3 M=%d N=%d K=%d order=%d\n", M, N, K, o);                 \
            for (int ta = 0; ta < 2; ta++)                                                         \
                for (int tb = 0; tb < 2; tb++) {                                                   \
                    P##fill(A, ld * ld); P##fill(B, ld * ld); P##fill(C, ld * ld);                 \
                    cblas_##P##gemm(orders[o], transes[ta], transes[tb], M, N, K, (T)0.5, A, ld, B, ld, (T)-1.0, C, ld); \
                    if (print) P##dump("gemm", C, ld * ld);                                        \
                }                                                                                  \
            for (int s = 0; s < 2; s++)                                                            \
                for (int u = 0; u < 2; u++) {                                                      \
                    P##fill(A, ld * ld); P##fill(B, ld * ld); P##fill(C, ld * ld);                 \
                    cblas_##P##symm(orders[o], sides[s], uplos[u], M, N, (T)0.75, A, ld, B, ld, (T)0.5, C, ld); \
                    if (print) P##dump("symm", C, ld * ld);                                        \
                    for (int t = 0; t < 2; t++) {                                                  \
                        P##fill(C, ld * ld);                                                       \
                        cblas_##P##syrk(orders[o], uplos[u], transes[t], N, K, (T)0.5, A, ld, (T)1.0, C, ld); \
                        if (print) P##dump("syrk", C, ld * ld);                                    \
                        cblas_##P##syr2k(orders[o], uplos[u], transes[t], N, K, (T)0.5, A, ld, B, ld, (T)0.0, C, ld); \
                        if (print) P##dump("syr2k", C, ld * ld);                                   \
                        for (int g = 0; g < 2; g++) {                                              \
                            P##tri(A, big, ld); P##fill(B, ld * ld);                               \
                            cblas_##P##trmm(orders[o], sides[s], uplos[u], transes[t], diags[g], M, N, (T)1.5, A, ld, B, ld); \
                            if (print) P##dump("trmm", B, ld * ld);                                \
                            cblas_##P##trsm(orders[o], sides[s], uplos[u], transes[t], diags[g], M, N, (T)1.5, A, ld, B, ld); \
                            if (print) P##dump("trsm", B, ld * ld);                                \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
        }                                                                                          \
        free(A); free(B); free(C);                                                                 \
    }                                                                                              \
}

DEFINE_TESTS(float, s)
DEFINE_TESTS(double, d)

int main(int argc, char **argv) {
    int repeat = argc > 1 ? atoi(argv[1]) : 1;
    if (repeat <= 1) {
        slevel1(); dlevel1();
        slevel2(); dlevel2();
        slevel3(1); dlevel3(1);
        float xs[40];
        for (int i = 0; i < 40; i++) xs[i] = (float)urand();
        printf("sdsdot %a dsdot %a\n", (double)cblas_sdsdot(40, 0.5f, xs, 1, xs, 1), cblas_dsdot(40, xs, 1, xs, 1));
        return 0;
    }
    for (int r = 0; r < repeat; r++) { slevel3(0); dlevel3(0); }
    printf("done\n");
    return 0;
}
