/* Differential driver for darknet (bench/lift/real_projects.py), linked with the library sources.
 *
 * Calls the library on seeded data and prints every result in %a (exact bits), so that the
 * original and the `simdgen lift --rewrite` build can be compared byte for byte:
 *   1. the utils/blas/gemm/matrix/image functions whose loops simdgen lifts, directly, on
 *      lengths around the rewrite's 32-element threshold and on data with ties, NaN, inf, -0.0;
 *   2. small networks (CFG, bench/lift/real_projects/darknet_tiny*.cfg): random init (srand(1)),
 *      STEPS SGD steps of train_network on seeded data, inference, the weights; a network whose
 *      last layer is a cost layer gets real-valued truths, 10% of them SECRET_NUM (masked).
 *
 * usage: darknet_driver [--net] STEPS CFG...   (--net: only part 2, printing only the losses and
 *                                               the predictions: the timed run)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darknet.h"
#include "blas.h"
#include "data.h"
#include "gemm.h"
#include "image.h"
#include "matrix.h"
#include "network.h"
#include "utils.h"

/* defined in darknet's sources without a header declaration */
void normalize_image2(image p);
void or_image(image src, image dest, int c);
void delta_region_mask(float *truth, float *x, int n, int index, float *delta, int stride, int scale);
image binarize_image(image im);
image blend_image(image fore, image back, float alpha);
void scale_image_channel(image im, int c, float v);
void translate_image_channel(image im, int c, float v);
void hue_image(image im, float hue);
void smooth_data(data d);
void transpose_matrix(float *a, int rows, int cols);
void do_nms(box *boxes, float **probs, int total, int classes, float thresh);
void denormalize_convolutional_layer(layer l);
void denormalize_connected_layer(layer l);
void denormalize_deconvolutional_layer(layer l);

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned rnd_u32(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (unsigned)((rng * 0x2545F4914F6CDD1DULL) >> 32);
}
static float rnd(float lo, float hi) { return lo + (hi - lo) * ((rnd_u32() >> 8) / 16777216.0f); }
static void fill(float *a, int n, float lo, float hi) { for (int i = 0; i < n; ++i) a[i] = rnd(lo, hi); }
/* some special values: ties (quantised values), -0.0, and with `nan` NaN and infinities */
static void spice(float *a, int n, int nan) {
    for (int i = 0; i < n; ++i) {
        unsigned r = rnd_u32() % 16;
        if (r == 0) a[i] = 0.5f;
        else if (r == 1) a[i] = -0.0f;
        else if (r == 2) a[i] = 1.0f;
        else if (r == 3 && nan) a[i] = NAN;
        else if (r == 4 && nan) a[i] = (rnd_u32() & 1) ? INFINITY : -INFINITY;
    }
}
static void dump(const char *name, const float *a, int n) {
    printf("%s[%d]", name, n);
    for (int i = 0; i < n; ++i) printf("%s%a", i % 8 ? " " : "\n  ", a[i]);
    printf("\n");
}
static float *fvec(int n) { return calloc(n > 0 ? n : 1, sizeof(float)); }

static const int sizes[] = {1, 7, 31, 32, 33, 64, 100, 257};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

static void test_arrays(int nan) {
    printf("== arrays nan=%d\n", nan);
    for (int s = 0; s < NSIZES; ++s) {
        int n = sizes[s];
        float *a = fvec(n), *b = fvec(n), *c = fvec(n), *d = fvec(n), *e = fvec(n);
        char name[64];
        printf("-- n=%d\n", n);
        fill(a, n, -2, 2); fill(b, n, -2, 2); fill(c, n, -1, 1);
        spice(a, n, nan); spice(b, n, nan);
        mult_add_into_cpu(n, a, b, c);
        dump("mult_add_into", c, n);
        l2_cpu(n, a, b, d, e); dump("l2.delta", d, n); dump("l2.error", e, n);
        l1_cpu(n, a, b, d, e); dump("l1.delta", d, n); dump("l1.error", e, n);
        smooth_l1_cpu(n, a, b, d, e); dump("sl1.delta", d, n); dump("sl1.error", e, n);
        memcpy(d, a, n * sizeof(float)); translate_array(d, n, 0.25f); dump("translate", d, n);
        /* blas.c's strided forms at stride 1 (the kernels) and 2 (the loops) */
        softmax(a, n, 0.75f, 1, d); dump("softmax", d, n);
        memset(d, 0, n * sizeof(float)); softmax(a, n / 2, 1.25f, 2, d); dump("softmax.stride2", d, n);
        memcpy(d, a, n * sizeof(float)); shortcut_cpu(1, n, 1, 1, b, n, 1, 1, 0.5f, -2.0f, d); dump("shortcut", d, n);
        memcpy(d, a, n * sizeof(float)); l2normalize_cpu(d, e, 1, n, 1); dump("l2normalize.x", d, n); dump("l2normalize.dx", e, n);
        memcpy(d, a, n * sizeof(float)); flatten(d, n, 1, 1, 1); dump("flatten", d, n);
        inter_cpu(n / 2, a, n - n / 2, b, 1, d); dump("inter", d, n);
        memset(e, 0, n * sizeof(float)); memcpy(c, a, n * sizeof(float));
        deinter_cpu(n / 2, e, n - n / 2, c, 1, d); dump("deinter.x", e, n); dump("deinter.y", c, n);
        memcpy(d, a, n * sizeof(float)); delta_region_mask(b, a, n, 0, d, 1, 3); dump("delta_region_mask", d, n);
        memcpy(d, a, n * sizeof(float)); delta_region_mask(b, a, n / 2, 0, d, 2, 3); dump("delta_region_mask.stride2", d, n);
        memcpy(d, a, n * sizeof(float)); scale_array(d, n, -1.5f); dump("scale", d, n);
        memcpy(d, a, n * sizeof(float)); if (!nan) { normalize_array(d, n); dump("normalize", d, n); }
        printf("max_index %d\n", max_index(a, n));
        int *ia = malloc(n * sizeof(int));
        for (int i = 0; i < n; ++i) ia[i] = (int)(rnd_u32() % 7) - 3;
        printf("max_int_index %d\n", max_int_index(ia, n));
        free(ia);
        float *rows[3] = {a, b, c};
        mean_arrays(rows, 3, n, d); dump("mean_arrays", d, n);
        /* do_nms: two classes rows per box, overlapping boxes */
        int total = 4;
        box bx[4] = {{0.5f, 0.5f, 0.4f, 0.4f}, {0.52f, 0.5f, 0.4f, 0.4f}, {0.1f, 0.1f, 0.1f, 0.1f}, {0.5f, 0.52f, 0.4f, 0.4f}};
        float *probs[4];
        for (int i = 0; i < total; ++i) { probs[i] = fvec(n); fill(probs[i], n, 0, 1); spice(probs[i], n, nan); }
        do_nms(bx, probs, total, n, 0.45f);
        for (int i = 0; i < total; ++i) { snprintf(name, sizeof name, "nms.probs%d", i); dump(name, probs[i], n); free(probs[i]); }
        free(a); free(b); free(c); free(d); free(e);
    }
}

static void test_gemm(void) {
    printf("== gemm\n");
    const int dims[][3] = {{5, 7, 3}, {37, 67, 45}, {8, 32, 33}, {16, 100, 9}};
    const float betas[] = {0.0f, 0.5f, 1.0f};
    for (int t = 0; t < 4; ++t) {
        int M = dims[t][0], N = dims[t][1], K = dims[t][2];
        float *A = fvec(M * K), *B = fvec(K * N), *C = fvec(M * N);
        for (int ta = 0; ta < 2; ++ta)
            for (int tb = 0; tb < 2; ++tb)
                for (int bi = 0; bi < 3; ++bi) {
                    fill(A, M * K, -1, 1); fill(B, K * N, -1, 1); fill(C, M * N, -1, 1);
                    int lda = ta ? M : K, ldb = tb ? K : N;
                    gemm_cpu(ta, tb, M, N, K, 0.75f, A, lda, B, ldb, betas[bi], C, N);
                    printf("gemm TA=%d TB=%d M=%d N=%d K=%d beta=%g\n", ta, tb, M, N, K, betas[bi]);
                    dump("C", C, M * N);
                }
        char *Ab = malloc(M * K);
        for (int i = 0; i < M * K; ++i) Ab[i] = (char)(rnd_u32() & 1);
        fill(B, K * N, -1, 1); fill(C, M * N, -1, 1);
        gemm_bin(M, N, K, 1.0f, Ab, K, B, N, C, N);
        dump("gemm_bin", C, M * N);
        fill(A, M * K, -1, 1);
        transpose_matrix(A, M, K);
        dump("transpose", A, M * K);
        free(Ab); free(A); free(B); free(C);
    }
}

static void test_matrix(void) {
    printf("== matrix\n");
    matrix m = make_matrix(5, 40), o = make_matrix(5, 40);
    for (int i = 0; i < m.rows; ++i) { fill(m.vals[i], m.cols, -1, 1); fill(o.vals[i], o.cols, -1, 1); }
    scale_matrix(m, 1.25f);
    matrix_add_matrix(m, o);
    for (int i = 0; i < m.rows; ++i) { dump("m", m.vals[i], m.cols); dump("o", o.vals[i], o.cols); }
    data d = {0};
    d.y = o;
    smooth_data(d);
    for (int i = 0; i < o.rows; ++i) dump("smooth", o.vals[i], o.cols);
    free_matrix(m);
    free_matrix(o);
}

static void dump_image(const char *name, image im) { dump(name, im.data, im.w * im.h * im.c); }

static void test_images(void) {
    printf("== images\n");
    const int wh[][2] = {{5, 3}, {40, 1}, {33, 17}};
    for (int t = 0; t < 3; ++t) {
        int w = wh[t][0], h = wh[t][1];
        image im = make_image(w, h, 3);
        fill(im.data, w * h * 3, -0.2f, 1.2f);
        image c = copy_image(im); constrain_image(c); dump_image("constrain", c); free_image(c);
        c = copy_image(im); normalize_image(c); dump_image("normalize", c); free_image(c);
        c = copy_image(im); normalize_image2(c); dump_image("normalize2", c); free_image(c);
        c = copy_image(im); rgbgr_image(c); dump_image("rgbgr", c); free_image(c);
        c = copy_image(im); translate_image(c, 0.1f); dump_image("translate", c); free_image(c);
        c = copy_image(im); scale_image(c, 0.9f); dump_image("scale", c); free_image(c);
        c = binarize_image(im); dump_image("binarize", c); free_image(c);
        c = threshold_image(im, 0.5f); dump_image("threshold", c); free_image(c);
        c = copy_image(im); constrain_image(c); hue_image(c, 0.3f); dump_image("hue", c); free_image(c);
        c = copy_image(im); constrain_image(c); distort_image(c, -0.2f, 1.3f, 0.8f); dump_image("distort", c); free_image(c);
        c = get_image_layer(im, 2); dump_image("layer2", c); free_image(c);
        c = grayscale_image(im); dump_image("gray", c); free_image(c);
        c = resize_image(im, w * 2 + 1, h + 3); dump_image("resize", c); free_image(c);
        c = copy_image(im); yuv_to_rgb(c); dump_image("yuv_to_rgb", c); rgb_to_yuv(c); dump_image("rgb_to_yuv", c);
        image b = blend_image(im, c, 0.3f); dump_image("blend", b); free_image(b);
        scale_image_channel(c, 1, 1.7f); translate_image_channel(c, 2, -0.25f); dump_image("channels", c); free_image(c);
        c = letterbox_image(im, 16, 16); dump_image("letterbox", c); free_image(c);
        image mask = make_image(w, h, 4);
        fill(mask.data, w * h * 4, 0, 1);
        c = mask_to_rgb(mask); dump_image("mask_to_rgb", c); free_image(c);
        for (int i = 0; i < w * h; ++i) mask.data[i] = (rnd_u32() % 3 == 0) ? 0.0f : (rnd_u32() % 5 == 0 ? -0.0f : 0.7f);
        c = copy_image(im); or_image(mask, c, 1); dump_image("or_image", c); free_image(c);
        free_image(mask);
        free_image(im);
    }
}

static void dump_layer(network *net, int i) {
    layer l = net->layers[i];
    char name[64];
    snprintf(name, sizeof name, "layer%d.output", i);
    dump(name, l.output, l.outputs * l.batch);
    if (l.weights && l.nweights) { snprintf(name, sizeof name, "layer%d.weights", i); dump(name, l.weights, l.nweights); }
    if (l.biases && l.n && (l.type == CONVOLUTIONAL || l.type == CONNECTED)) { snprintf(name, sizeof name, "layer%d.biases", i); dump(name, l.biases, l.n); }
    if (l.batch_normalize && l.rolling_mean) { snprintf(name, sizeof name, "layer%d.rolling_mean", i); dump(name, l.rolling_mean, l.out_c); }
}

static void test_network(const char *cfg, int steps, int quiet) {
    printf("== network %s\n", cfg);
    srand(1);
    network *net = parse_network_cfg((char *)cfg);
    int rows = net->batch * 2;
    data d = {0};
    d.X = make_matrix(rows, net->inputs);
    d.y = make_matrix(rows, net->outputs);
    for (int i = 0; i < rows; ++i) {
        fill(d.X.vals[i], net->inputs, 0, 1);
        if (net->layers[net->n - 1].type == COST)
            for (int j = 0; j < net->outputs; ++j) d.y.vals[i][j] = rnd_u32() % 10 ? rnd(-1, 1) : SECRET_NUM;
        else
            d.y.vals[i][rnd_u32() % net->outputs] = 1;
    }
    for (int s = 0; s < steps; ++s) {
        float loss = train_network(net, d);
        printf("step %d loss %a\n", s, loss);
    }
    if (!quiet)
        for (int i = 0; i < net->n; ++i) dump_layer(net, i);
    set_batch_network(net, 1);
    float *out = network_predict(net, d.X.vals[0]);
    dump("predict", out, net->outputs);
    matrix p = network_predict_data(net, d);
    for (int i = 0; i < p.rows; ++i) dump("predict_data", p.vals[i], p.cols);
    /* not network_predict_data_multi: it allocates batch * rows floats for batch * cols (a darknet bug) */
    printf("top %d\n", max_index(p.vals[0], p.cols));
    for (int i = 0; i < net->n && !quiet; ++i) {
        layer l = net->layers[i];
        if (l.type == CONVOLUTIONAL && l.batch_normalize) {
            denormalize_convolutional_layer(l);
            dump("denorm.conv.weights", l.weights, l.nweights);
            dump("denorm.conv.biases", l.biases, l.n);
        }
        if (l.type == DECONVOLUTIONAL && l.batch_normalize) {
            denormalize_deconvolutional_layer(l);
            dump("denorm.deconv.weights", l.weights, l.nweights);
        }
        if (l.type == CONNECTED && l.batch_normalize) {
            denormalize_connected_layer(l);
            dump("denorm.conn.weights", l.weights, l.inputs * l.outputs);
            dump("denorm.conn.biases", l.biases, l.outputs);
        }
    }
    free_matrix(p);
    free_data(d);
    /* no free_network: it double-frees the XNOR layers of darknet_tiny2.cfg (a darknet bug) */
}

int main(int argc, char **argv) {
    int a = 1, net_only = 0;
    if (a < argc && strcmp(argv[a], "--net") == 0) net_only = 1, ++a;
    if (argc - a < 2) { fprintf(stderr, "usage: %s [--net] STEPS CFG...\n", argv[0]); return 2; }
    int steps = atoi(argv[a++]);
    if (!net_only) {
        test_arrays(0);
        test_arrays(1);
        test_gemm();
        test_matrix();
        test_images();
    }
    for (; a < argc; ++a) test_network(argv[a], steps, net_only);
    return 0;
}
