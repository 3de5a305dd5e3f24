// SPDX-License-Identifier: Apache-2.0
// The object-like macros that the headers generated code includes define (stddef.h, stdint.h,
// stdio.h, stdlib.h, string.h, immintrin.h, arm_neon.h, arm_sve.h; glibc 2.36 with gcc-12 and
// clang-19, C++11 and C++17, x86-64 and AArch64), except the names reserved anyway ("__x",
// "_X") and the compilers' predefined ones. A user's name that is one of them would be replaced
// by the preprocessor: in the generated header (which includes stdint.h) and, in a unity build,
// in every generated file after the first. The spec parser rejects them. Made by:
//   printf '#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n' > h.h
//   { g++-12 -std=c++17 -dM -E -x c++ h.h -include immintrin.h; clang++-19 -std=c++17 -dM -E -x c++ h.h -include immintrin.h;
//     aarch64-linux-gnu-g++ -std=c++17 -dM -E -x c++ h.h -include arm_neon.h -include arm_sve.h;
//     clang++-19 --target=aarch64-linux-gnu -std=c++17 -dM -E -x c++ h.h -include arm_neon.h -include arm_sve.h;
//     g++-12 -std=c++11 -dM -E -x c++ h.h; } | awk '/^#define/ {print $2}' | grep -v '(' | grep -v -E '^__|^_[A-Z]' | sort -u
// minus the same command's output for an empty file (the predefined macros).
#pragma once

#include <string_view>

namespace simdgen {

inline constexpr std::string_view kSystemMacros[] = {
    "BIG_ENDIAN", "BUFSIZ", "BYTE_ORDER", "EOF", "EXIT_FAILURE", "EXIT_SUCCESS", "FD_SETSIZE",
    "FILENAME_MAX", "FOPEN_MAX", "INT16_MAX", "INT16_MIN", "INT16_WIDTH", "INT32_MAX", "INT32_MIN",
    "INT32_WIDTH", "INT64_MAX", "INT64_MIN", "INT64_WIDTH", "INT8_MAX", "INT8_MIN", "INT8_WIDTH",
    "INTMAX_MAX", "INTMAX_MIN", "INTMAX_WIDTH", "INTPTR_MAX", "INTPTR_MIN", "INTPTR_WIDTH", "INT_FAST16_MAX",
    "INT_FAST16_MIN", "INT_FAST16_WIDTH", "INT_FAST32_MAX", "INT_FAST32_MIN", "INT_FAST32_WIDTH",
    "INT_FAST64_MAX", "INT_FAST64_MIN", "INT_FAST64_WIDTH", "INT_FAST8_MAX", "INT_FAST8_MIN",
    "INT_FAST8_WIDTH", "INT_LEAST16_MAX", "INT_LEAST16_MIN", "INT_LEAST16_WIDTH", "INT_LEAST32_MAX",
    "INT_LEAST32_MIN", "INT_LEAST32_WIDTH", "INT_LEAST64_MAX", "INT_LEAST64_MIN", "INT_LEAST64_WIDTH",
    "INT_LEAST8_MAX", "INT_LEAST8_MIN", "INT_LEAST8_WIDTH", "LITTLE_ENDIAN", "L_ctermid", "L_cuserid",
    "L_tmpnam", "MB_CUR_MAX", "NFDBITS", "NULL", "PDP_ENDIAN", "PTRDIFF_MAX", "PTRDIFF_MIN", "PTRDIFF_WIDTH",
    "P_tmpdir", "RAND_MAX", "RENAME_EXCHANGE", "RENAME_NOREPLACE", "RENAME_WHITEOUT", "SEEK_CUR",
    "SEEK_DATA", "SEEK_END", "SEEK_HOLE", "SEEK_SET", "SIG_ATOMIC_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_WIDTH",
    "SIZE_MAX", "SIZE_WIDTH", "TMP_MAX", "UINT16_MAX", "UINT16_WIDTH", "UINT32_MAX", "UINT32_WIDTH",
    "UINT64_MAX", "UINT64_WIDTH", "UINT8_MAX", "UINT8_WIDTH", "UINTMAX_MAX", "UINTMAX_WIDTH", "UINTPTR_MAX",
    "UINTPTR_WIDTH", "UINT_FAST16_MAX", "UINT_FAST16_WIDTH", "UINT_FAST32_MAX", "UINT_FAST32_WIDTH",
    "UINT_FAST64_MAX", "UINT_FAST64_WIDTH", "UINT_FAST8_MAX", "UINT_FAST8_WIDTH", "UINT_LEAST16_MAX",
    "UINT_LEAST16_WIDTH", "UINT_LEAST32_MAX", "UINT_LEAST32_WIDTH", "UINT_LEAST64_MAX", "UINT_LEAST64_WIDTH",
    "UINT_LEAST8_MAX", "UINT_LEAST8_WIDTH", "WCHAR_MAX", "WCHAR_MIN", "WCHAR_WIDTH", "WCONTINUED", "WEXITED",
    "WINT_MAX", "WINT_MIN", "WINT_WIDTH", "WNOHANG", "WNOWAIT", "WSTOPPED", "WUNTRACED", "_andn_u32",
    "_andn_u64", "_blsi_u32", "_blsi_u64", "_blsmsk_u32", "_blsmsk_u64", "_blsr_u32", "_blsr_u64",
    "_kand_mask16", "_kandn_mask16", "_knot_mask16", "_kor_mask16", "_kxnor_mask16", "_kxor_mask16", "_m_",
    "_m_empty", "_m_from_int", "_m_from_int64", "_m_maskmovq", "_m_packssdw", "_m_packsswb", "_m_packuswb",
    "_m_paddb", "_m_paddd", "_m_paddsb", "_m_paddsw", "_m_paddusb", "_m_paddusw", "_m_paddw", "_m_pand",
    "_m_pandn", "_m_pavgb", "_m_pavgw", "_m_pcmpeqb", "_m_pcmpeqd", "_m_pcmpeqw", "_m_pcmpgtb", "_m_pcmpgtd",
    "_m_pcmpgtw", "_m_pextrw", "_m_pinsrw", "_m_pmaddwd", "_m_pmaxsw", "_m_pmaxub", "_m_pminsw", "_m_pminub",
    "_m_pmovmskb", "_m_pmulhuw", "_m_pmulhw", "_m_pmullw", "_m_por", "_m_psadbw", "_m_pshufw", "_m_pslld",
    "_m_pslldi", "_m_psllq", "_m_psllqi", "_m_psllw", "_m_psllwi", "_m_psrad", "_m_psradi", "_m_psraw",
    "_m_psrawi", "_m_psrld", "_m_psrldi", "_m_psrlq", "_m_psrlqi", "_m_psrlw", "_m_psrlwi", "_m_psubb",
    "_m_psubd", "_m_psubsb", "_m_psubsw", "_m_psubusb", "_m_psubusw", "_m_psubw", "_m_punpckhbw",
    "_m_punpckhdq", "_m_punpckhwd", "_m_punpcklbw", "_m_punpckldq", "_m_punpcklwd", "_m_pxor", "_m_to_int",
    "_m_to_int64", "_mm256_mask_cvtps_ph", "_mm256_maskz_cvtps_ph", "_mm512_cvtps_ph",
    "_mm512_mask_cvtps_ph", "_mm512_mask_permutevar_epi32", "_mm512_maskz_cvtps_ph",
    "_mm512_permutevar_epi32", "_mm512_setzero", "_mm512_setzero_epi32", "_mm512_undefined",
    "_mm512_undefined_si512", "_mm_cvti32_sd", "_mm_cvti32_ss", "_mm_cvti64_sd", "_mm_cvti64_ss",
    "_mm_cvtsd_i32", "_mm_cvtsd_i64", "_mm_cvtss_i32", "_mm_cvtss_i64", "_mm_mask_cvtps_ph",
    "_mm_maskz_cvtps_ph", "_tzcnt_u16", "_tzcnt_u32", "_tzcnt_u64", "stderr", "stdin", "stdout",
    "svcvtnt_bf16_f32_x", "svcvtnt_bf16_x", "svcvtnt_f16_f32_x", "svcvtnt_f16_x", "svcvtnt_f32_f64_x",
    "svcvtnt_f32_x", "svcvtxnt_f32_f64_x", "svcvtxnt_f32_x",
};

}  // namespace simdgen
