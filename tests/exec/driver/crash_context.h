// SPDX-License-Identifier: Apache-2.0
// Names the kernel call in progress when it crashes (e.g. on a guard page): doctest's own crash
// report only names the test case. Handlers chain to the previous ones (doctest's) by re-faulting.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace simdgen_test {

class CrashContext {
 public:
  CrashContext() {
    struct sigaction sa {};
    sa.sa_sigaction = &on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv_);
    sigaction(SIGBUS, &sa, &old_bus_);
  }
  ~CrashContext() {
    sigaction(SIGSEGV, &old_segv_, nullptr);
    sigaction(SIGBUS, &old_bus_, nullptr);
  }
  CrashContext(const CrashContext&) = delete;
  CrashContext& operator=(const CrashContext&) = delete;

  static void set(const std::string& what) {
    std::strncpy(text_, what.c_str(), sizeof text_ - 1);
    text_[sizeof text_ - 1] = '\0';
  }

 private:
  static void on_signal(int sig, siginfo_t*, void*) {
    constexpr char head[] = "\n*** crashed while running: ";
    [[maybe_unused]] ssize_t r = write(2, head, sizeof head - 1);
    r = write(2, text_, std::strlen(text_));
    r = write(2, "\n", 1);
    // Restore the previous handler; returning re-executes the faulting access, which it reports.
    sigaction(sig, sig == SIGBUS ? &old_bus_ : &old_segv_, nullptr);
  }
  static inline char text_[512] = "";
  static inline struct sigaction old_segv_ {}, old_bus_ {};
};

}  // namespace simdgen_test
