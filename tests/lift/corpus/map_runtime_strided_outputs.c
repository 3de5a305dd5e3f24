// SPDX-License-Identifier: Apache-2.0
// Element-wise loops that read and write at runtime strides, as darknet and speexdsp write them:
// `delta[index + stride*(offset + i)] = ...` (region layer), `m[j] = out[mi + j*w*h]`, a struct's
// plane `p.data[i*p.h*p.w]`, and a channel of interleaved audio `in[i*st->channels + ch]` in and
// out. The kernels take the strides at run time; the call is made when no input stride is negative,
// no output stride below 1 (0 stores every element into one: the loop's last store wins) and no
// output reaches another array, the struct fields the positions read (`st->channels`) included.
#include <stdint.h>
#include <string.h>

typedef struct { int w, h, c; float *data; } image;
typedef struct { int channels; int frame_size; int data[1200]; } chans;

static float fa[3 * 4100], fb[3 * 4100];
static short sa[3 * 4100];
static int ia[1200];
static float big[3 * 4100];

static void region_delta(float *delta, const float *output, int index, int stride, int offset, int n, float scale)
{
    int i;
    // expect: lifted region_delta_lifted (map f32 -> f32 (1 input, 1 output))
    for(i = 0; i < n; ++i){
        delta[index + stride*(offset + i)] = scale * (0 - output[index + stride*(offset + i)]);
    }
}

static void plane_mask(float *m, const float *out, int mi, int w, int h, int nc)
{
    int j;
    // expect: lifted plane_mask_lifted (map f32 -> f32 (1 input, 1 output))
    for(j = 0; j < nc; ++j) m[j] = out[mi + j*w*h];
}

static void plane_minmax(image p, float *min, float *max)
{
    int i;
    // expect: lifted plane_minmax_lifted (map f32 -> f32 (1 input, 2 outputs))
    for(i = 0; i < p.c; ++i) min[i] = max[i] = p.data[i*p.h*p.w];
}

static void channel_in(const chans *st, float *buff, const short *in, int ch)
{
    int i;
    // expect: lifted channel_in_lifted (map i16 -> f32 (1 input, 1 output))
    for (i=0;i<st->frame_size;i++)
        buff[i+st->frame_size] = in[i*st->channels+ch];
}

static void channel_out(const chans *st, short *out, const float *y, int ch)
{
    int i;
    // expect: lifted channel_out_lifted (map f32 -> i16 (1 input, 1 output))
    for (i=0;i<st->frame_size;i++)
    {
        float tmp = y[i];
        if (tmp>32767)
            tmp = 32767;
        if (tmp < -32767)
            tmp = -32767;
        out[i*st->channels+ch] = tmp;
    }
}

/* The output may be the struct itself: each store can change the stride and the bound. */
static void channel_flags(chans *st, int *out, const int *y, int ch)
{
    int i;
    // expect: lifted channel_flags_lifted (map i32 -> i32 (1 input, 1 output))
    for (i=0;i<st->frame_size;i++) out[i*st->channels+ch] = y[i] & 1;
}

static void two_strides(const float *x, int n, float *a, int sa_, float *b, int sb)
{
    int i;
    // expect: lifted two_strides_lifted (map f32 -> f32 (1 input, 2 outputs))
    for (i = 0; i < n; i++) {
        a[i*sa_] = x[i] + 1.0f;
        b[sb*i] = x[i] * 0.5f;
    }
}

static void scale_from(float *y, const float *x, int inc, int n)
{
    int i;
    // expect: lifted scale_from_lifted (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) y[i] = x[i*inc] * 0.5f + 1.0f;
}

typedef struct { int w, h, coords, classes, outputs; } layer;

/* darknet's entry_index: a position computed by a helper with locals */
static int entry_index(layer l, int batch, int location, int entry)
{
    int n =   location / (l.w*l.h);
    int loc = location % (l.w*l.h);
    return batch*l.outputs + n*l.w*l.h*(l.coords+l.classes+1) + entry*l.w*l.h + loc;
}

static int entry_index_ptr(const layer *l, int location, int entry)
{
    return entry*l->w*l->h + location;
}

static void class_probs(layer l, float *prob, const float *predictions, int n, int i, float scale, float thresh)
{
    int j;
    // expect: lifted class_probs_lifted (map f32 -> f32 (1 input, 1 output))
    for(j = 0; j < l.classes; ++j){
        int class_index = entry_index(l, 0, n*l.w*l.h + i, l.coords + 1 + j);
        float prob_j = scale*predictions[class_index];
        prob[j] = (prob_j > thresh) ? prob_j : 0;
    }
}

static void class_probs_ptr(const layer *l, float *prob, const float *predictions, float scale)
{
    int j;
    /* the stride l->w*l->h is read in the helper: not checked by the call, so the loop stays */
    // expect: not lifted:
    for(j = 0; j < l->classes; ++j) prob[j] = scale*predictions[entry_index_ptr(l, 3, j)];
}

static uint64_t hash(const void* v, size_t bytes, uint64_t h) {
    const unsigned char* p = (const unsigned char*)v;
    size_t i;
    // expect: not lifted:
    for (i = 0; i < bytes; i++) h = h * 1000003u + p[i];
    return h;
}

uint64_t runtime_strided_outputs(const float* x, int n, float scale, int which) {
    unsigned w = (unsigned)which;
    /* strides 1, 2 or 3 and now and then 0 or -1: the loop */
    int s1 = (int)(w % 3) + 1, s2 = (int)(w / 3 % 3) + 1, i;
    static chans st;
    image p;
    if (scale != scale) scale = 3.0f;  /* a NaN times a NaN element: which NaN comes out is the
                                          compiler's choice (SVE commutes the product) */
    if (w % 11 == 5) s1 = 0;
    if (w % 13 == 7) s2 = -1;
    if (n > 4000) n = 4000;
    memset(fa, 0, sizeof fa);
    memset(fb, 0, sizeof fb);
    memset(sa, 0, sizeof sa);
    // expect: not lifted: is not `i < end`
    for (i = 0; i < 3 * 4100 && n > 0; i++) big[i] = x[i % n];
    region_delta(fa, big, 1, s1 > 0 ? s1 : 1, 2, n / 3, scale);
    region_delta(fb + 5, fb, 0, s2 > 0 ? s2 : 1, 0, n / 3, scale);   /* may overlap: the loop runs */
    plane_mask(fb, big, 1, s1, s2 > 0 ? s2 : 1, n / 3);                /* stride 0 reads big[1] n / 3 times */
    p.w = s1; p.h = 1; p.c = n / 3; p.data = big;
    plane_minmax(p, fa + 4100, fa + 8200);
    st.channels = s1 ? s1 : 1; st.frame_size = n / 4 > 1100 ? 1100 : n / 4;
    channel_in(&st, fb + 4100, sa, 0);
    // expect: not lifted: the loop index itself
    for (i = 0; i < 3 * 4100; i++) sa[i] = (short)(i * 7);
    channel_in(&st, fb + 4100, sa, 1);
    channel_out(&st, sa, x, st.channels - 1);
    // expect: not lifted: the loop index itself
    for (i = 0; i < 1200; i++) st.data[i] = i;
    // expect: not lifted: the loop index itself
    for (i = 0; i < 1200; i++) ia[i] = sa[i] + i;
    channel_flags(&st, (int*)&st + (w & 1), ia, 0);                   /* writes the struct: the loop */
    st.channels = 2; st.frame_size = 500;
    channel_flags(&st, st.data, ia, 1);
    two_strides(x, n / 3, fa, s1, fb + 4100, s2);
    two_strides(x, n / 3, fa, 2, fa + 1, 2);                           /* interleaved: the loop runs */
    scale_from(fa + 9000, fb + 4100, s1, n / 3);
    scale_from(fb + 7, fb + 7, 0, n / 3);      /* y[0] is the element every y[i] reads: the loop */
    {
        layer l = {3, 2, 4, n / 8, 0};
        l.outputs = l.w * l.h * (l.coords + l.classes + 1);
        class_probs(l, fa + 10000, big, 1, (int)(w % 6), scale, 0.25f);   /* reads big[<= 6 * (n/8 + 6)] */
        class_probs_ptr(&l, fa + 11000, big, scale);
    }
    return hash(fa, sizeof fa, hash(fb, sizeof fb, hash(sa, sizeof sa, hash(&st, sizeof st, 0))));
}
