// SPDX-License-Identifier: Apache-2.0
// Every other element (the real parts of interleaved complex numbers): the spec's input stride 2.
float max_real(const float* a, int n) {
    float m = -1e30f;
    // expect: lifted max_real_lifted (reduce max over
    for (int i = 0; i < n / 2; ++i) {
        if (a[2 * i] > m)
            m = a[2 * i];
    }
    return m;
}
