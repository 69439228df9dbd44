// Coverage by outcome for the image targets: libpng and TurboJPEG are the system's uninstrumented shared
// libraries, so libFuzzer cannot see which path an input took inside them. The harness hashes what came out
// (the codec's error text, or the decoded size) and bumps one of these counters, which libFuzzer reads as
// extra coverage (its `__libfuzzer_extra_counters` section): an input that makes the codec say something new
// is kept in the corpus.
#include <stdint.h>

__attribute__((section("__libfuzzer_extra_counters"))) static uint8_t fuzz_outcome_counters[4096];

void fuzz_outcome(uint64_t hash) {
    uint8_t *counter = &fuzz_outcome_counters[hash % sizeof fuzz_outcome_counters];
    if (*counter < 255) *counter += 1;
}
