/* The file of docs/lift.md's first example (tests/docs checks the remarks it shows). */
#include <stddef.h>
#include <stdint.h>
uint32_t pixel_sum(const uint8_t* px, size_t n) {
  uint32_t sum = 0;
  for (size_t i = 0; i < n; ++i) sum += px[i];
  return sum;
}

/* The first index of the largest temperature, and that temperature. */
long hottest(const float* temps, long n, float* value) {
  float best = temps[0];
  long at = 0;
  for (long i = 1; i < n; ++i) {
    if (temps[i] > best) {
      best = temps[i];
      at = i;
    }
  }
  *value = best;
  return at;
}

/* The indices of the samples above a threshold: a loop that stores where a counter says, which
   is not one element per iteration (the remark says why).

   peaks must have room for n indices; the count is returned.
*/
static const float kThreshold = 0.5f;

long peaks_above(const float* x, long n, long* peaks) {
  long count = 0;
  /* Each sample is compared once; the order of the indices is the order of the samples, so a
     caller may binary-search them. A sample equal to the threshold is not a peak.
     (The loop stays as written: simdgen has no family for a store to a position that a
     counter gives.)
  */
  /* ... */
  /* ... */
  for (long i = 0; i < n; ++i)
    if (x[i] > kThreshold) peaks[count++] = i;
  return count;
}
