/* Differential driver for speexdsp (bench/lift/real_projects.py): the library's API beyond what
 * its test programs use, on seeded signals, every result printed exactly (integers, floats in %a).
 *
 *   fft       spx_fft/spx_ifft (smallft) for sizes of radix 2, 3, 4, 5 and other primes (dradfg)
 *   denoise   the preprocessor with denoise + AGC + VAD + dereverb on, 8 and 16 kHz, and its
 *             PSD/noise PSD/gain getters
 *   echo      speex_echo_playback/capture (the buffered API), the impulse response, stereo
 *   resample  every quality 0..10, up and down, float/int/interleaved, quality and rate changes
 *             mid-stream (which shift the filter memory)
 *   decorr    speex_decorrelate (scal.c)
 *
 * usage: speex_driver [SECONDS]     (the length of the test signal, default 2)
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* FLOATING_POINT, the FFT: fftwrap.h needs them */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speex/speex_echo.h"
#include "speex/speex_preprocess.h"
#include "speex/speex_resampler.h"
#include "fftwrap.h"

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static double urand(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (double)((rng * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}
static short clip16(double v) { return (short)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }

/* a sweep with bursts of noise and silence, speech-like in level */
static void signal16(short *out, int n, int rate, double f0) {
    double ph = 0;
    for (int i = 0; i < n; i++) {
        double t = (double)i / rate;
        double f = f0 * pow(rate * 0.45 / f0, fmod(t, 1.5) / 1.5);
        ph += 2 * M_PI * f / rate;
        double env = (fmod(t, 0.9) < 0.6) ? 0.3 + 0.7 * fabs(sin(2 * M_PI * 1.3 * t)) : 0.02;
        out[i] = clip16(12000 * env * sin(ph) + 900 * (urand() - 0.5));
    }
}

static unsigned long long fnv(const void *p, size_t n) {
    const unsigned char *b = p;
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ULL; }
    return h;
}
static void dumpf(const char *name, const float *a, int n) {
    printf("%s[%d]", name, n);
    for (int i = 0; i < n; i++) printf("%s%a", i % 8 ? " " : "\n  ", a[i]);
    printf("\n");
}
static void dumpi(const char *name, const int *a, int n) {
    printf("%s[%d]", name, n);
    for (int i = 0; i < n; i++) printf("%s%d", i % 16 ? " " : "\n  ", a[i]);
    printf("\n");
}

static void test_fft(void) {
    static const int sizes[] = {8, 30, 60, 64, 70, 96, 160, 198, 256, 286, 320, 462, 512, 1001};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        float *in = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float)), *back = malloc(n * sizeof(float));
        for (int i = 0; i < n; i++) in[i] = (float)(urand() * 2 - 1);
        void *t = spx_fft_init(n);
        spx_fft(t, in, out);
        spx_ifft(t, out, back);
        printf("fft n=%d\n", n);
        dumpf("fwd", out, n);
        dumpf("inv", back, n);
        spx_fft_destroy(t);
        free(in); free(out); free(back);
    }
}

static void test_denoise(int rate, int frame, int seconds) {
    int n = rate * seconds / frame * frame;
    short *x = malloc(n * sizeof(short));
    signal16(x, n, rate, 80);
    SpeexPreprocessState *st = speex_preprocess_state_init(frame, rate);
    int on = 1;
    float f;
    speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_DENOISE, &on);
    speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_AGC, &on);
    speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_VAD, &on);
    speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_DEREVERB, &on);
    f = 0.4f; speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_DEREVERB_DECAY, &f);
    f = 0.3f; speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_DEREVERB_LEVEL, &f);
    int level = 12000; speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_AGC_TARGET, &level);
    int psd_size = 0;
    speex_preprocess_ctl(st, SPEEX_PREPROCESS_GET_PSD_SIZE, &psd_size);
    int *psd = calloc(psd_size, sizeof(int));
    printf("denoise rate=%d frame=%d psd_size=%d\n", rate, frame, psd_size);
    for (int k = 0; k + frame <= n; k += frame) {
        int vad = speex_preprocess_run(st, x + k);
        int gain = 0, prob = 0, loud = 0;
        speex_preprocess_ctl(st, SPEEX_PREPROCESS_GET_AGC_GAIN, &gain);
        speex_preprocess_ctl(st, SPEEX_PREPROCESS_GET_PROB, &prob);
        speex_preprocess_ctl(st, SPEEX_PREPROCESS_GET_AGC_LOUDNESS, &loud);
        printf("  frame %d vad %d gain %d prob %d loud %d pcm %016llx\n", k / frame, vad, gain, prob, loud,
               fnv(x + k, frame * sizeof(short)));
        if ((k / frame) % 25 == 24) {
            speex_preprocess_ctl(st, SPEEX_PREPROCESS_GET_PSD, psd);
            dumpi("psd", psd, psd_size);
            speex_preprocess_ctl(st, SPEEX_PREPROCESS_GET_NOISE_PSD, psd);
            dumpi("noise_psd", psd, psd_size);
            /* the estimate-only path */
            short tmp[1024];
            memcpy(tmp, x + k, frame * sizeof(short));
            speex_preprocess_estimate_update(st, tmp);
        }
    }
    free(psd);
    speex_preprocess_state_destroy(st);
    free(x);
}

static void test_echo(int rate, int frame, int tail, int mics, int speakers, int seconds) {
    int n = rate * seconds / frame * frame;
    short *far = malloc(n * speakers * sizeof(short)), *mic = malloc(n * mics * sizeof(short));
    short *out = malloc(frame * mics * sizeof(short));
    short *tmp = malloc(n * sizeof(short));
    for (int s = 0; s < speakers; s++) {
        signal16(tmp, n, rate, 120 + 40 * s);
        for (int i = 0; i < n; i++) far[i * speakers + s] = tmp[i];
    }
    for (int m = 0; m < mics; m++)
        for (int i = 0; i < n; i++) {
            double e = 0;
            for (int s = 0; s < speakers; s++)
                for (int d = 10 + 3 * m + s; d < 300; d += 17)
                    if (i >= d) e += 0.5 * exp(-d / 60.0) * ((d & 1) ? 1 : -1) * far[(i - d) * speakers + s];
            mic[i * mics + m] = clip16(e + 300 * sin(2 * M_PI * 440 * i / (double)rate) * ((i / rate) & 1) + 200 * (urand() - 0.5));
        }
    SpeexEchoState *st = mics == 1 && speakers == 1 ? speex_echo_state_init(frame, tail)
                                                    : speex_echo_state_init_mc(frame, tail, mics, speakers);
    speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
    SpeexPreprocessState *den = speex_preprocess_state_init(frame, rate);
    if (mics == 1) speex_preprocess_ctl(den, SPEEX_PREPROCESS_SET_ECHO_STATE, st);
    printf("echo rate=%d frame=%d tail=%d mics=%d speakers=%d\n", rate, frame, tail, mics, speakers);
    for (int k = 0; k + frame <= n; k += frame) {
        if (mics == 1 && speakers == 1 && (k / frame) % 2) {
            /* the buffered API: playback, then capture */
            speex_echo_playback(st, far + k);
            speex_echo_capture(st, mic + k, out);
        } else {
            speex_echo_cancellation(st, mic + k * mics, far + k * speakers, out);
        }
        if (mics == 1) speex_preprocess_run(den, out);
        printf("  frame %d out %016llx\n", k / frame, fnv(out, frame * mics * sizeof(short)));
    }
    int size = 0;
    speex_echo_ctl(st, SPEEX_ECHO_GET_IMPULSE_RESPONSE_SIZE, &size);
    int *ir = calloc(size, sizeof(int));
    speex_echo_ctl(st, SPEEX_ECHO_GET_IMPULSE_RESPONSE, ir);
    dumpi("impulse_response", ir, size);
    free(ir);
    speex_echo_state_reset(st);
    speex_echo_state_destroy(st);
    speex_preprocess_state_destroy(den);
    free(far); free(mic); free(out); free(tmp);
}

static void test_resample(int seconds) {
    const int rates[][2] = {{8000, 48000}, {48000, 8000}, {44100, 48000}, {48000, 44100}, {16000, 11025}, {96000, 22050}};
    int n = 8000 * seconds;
    short *x = malloc(n * sizeof(short));
    signal16(x, n, 8000, 50);
    float *xf = malloc(n * sizeof(float)), *yf = malloc(8 * n * sizeof(float));
    short *y = malloc(8 * n * sizeof(short));
    for (int i = 0; i < n; i++) xf[i] = x[i];
    for (int q = 0; q <= 10; q++)
        for (unsigned r = 0; r < sizeof rates / sizeof rates[0]; r++) {
            int err = 0;
            SpeexResamplerState *st = speex_resampler_init(1, rates[r][0], rates[r][1], q, &err);
            speex_resampler_skip_zeros(st);
            spx_uint32_t used = 0, made = 0;
            for (int k = 0; k < n; ) {
                spx_uint32_t in_len = (spx_uint32_t)(n - k < 997 ? n - k : 997), out_len = 8 * 997;
                if ((k / 997) % 2)
                    speex_resampler_process_float(st, 0, xf + k, &in_len, yf + made, &out_len);
                else {
                    speex_resampler_process_int(st, 0, x + k, &in_len, y, &out_len);
                    for (spx_uint32_t i = 0; i < out_len; i++) yf[made + i] = y[i];
                }
                k += in_len; used += in_len; made += out_len;
                if (in_len == 0 && out_len == 0) break;
            }
            printf("resample q=%d %d->%d used=%u made=%u in_lat=%d out_lat=%d out %016llx\n", q, rates[r][0], rates[r][1],
                   used, made, speex_resampler_get_input_latency(st), speex_resampler_get_output_latency(st),
                   fnv(yf, made * sizeof(float)));
            speex_resampler_destroy(st);
        }
    /* quality and rate changes mid-stream (update_filter shifts the filter memory), stereo interleaved */
    int err = 0;
    SpeexResamplerState *st = speex_resampler_init(2, 48000, 44100, 3, &err);
    float *st_in = malloc(2 * n * sizeof(float));
    for (int i = 0; i < n; i++) { st_in[2 * i] = xf[i]; st_in[2 * i + 1] = -0.5f * xf[n - 1 - i]; }
    int step = 0;
    for (int k = 0; k < n; step++) {
        spx_uint32_t in_len = (spx_uint32_t)(n - k < 640 ? n - k : 640), out_len = 4 * 640;
        speex_resampler_process_interleaved_float(st, st_in + 2 * k, &in_len, yf, &out_len);
        printf("  step %d in %u out %u %016llx\n", step, in_len, out_len, fnv(yf, 2 * out_len * sizeof(float)));
        k += in_len;
        if (in_len == 0) break;
        if (step % 3 == 0) speex_resampler_set_quality(st, (step * 7) % 11);
        if (step % 4 == 1) speex_resampler_set_rate(st, 48000, step % 8 == 1 ? 8000 : 96000);
        if (step % 4 == 3) speex_resampler_set_rate(st, 48000, 44100);
    }
    speex_resampler_reset_mem(st);
    speex_resampler_destroy(st);
    free(x); free(xf); free(yf); free(y); free(st_in);
}

static void test_decorrelate(int seconds) {
    const int rate = 16000, frame = 320;
    int n = rate * seconds / frame * frame;
    short *x = malloc(n * sizeof(short)), *y = malloc(2 * frame * sizeof(short));
    signal16(x, n, rate, 100);
    for (int strength = 0; strength <= 100; strength += 50) {
        SpeexDecorrState *st = speex_decorrelate_new(rate, 2, frame);
        for (int k = 0; k + frame <= n; k += frame) {
            speex_decorrelate(st, x + k, y, strength);
            printf("decorr s=%d frame %d %016llx\n", strength, k / frame, fnv(y, 2 * frame * sizeof(short)));
        }
        speex_decorrelate_destroy(st);
    }
    free(x); free(y);
}

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 2;
    test_fft();
    test_denoise(8000, 160, seconds);
    test_denoise(16000, 320, seconds);
    test_echo(8000, 128, 1024, 1, 1, seconds);
    test_echo(16000, 256, 2048, 1, 1, seconds);
    test_echo(8000, 160, 800, 2, 2, seconds);
    test_resample(seconds);
    test_decorrelate(seconds);
    return 0;
}
