# SPDX-License-Identifier: Apache-2.0
# The dtypes for which families/arg_reduce_type.cpp is compiled (as <dtype>:<C type>), once each,
# natively (tests/exec) and for aarch64 (tests/exec_aarch64): every input dtype an arg_reduce
# spec may have.
set(SIMDGEN_ARG_REDUCE_TYPES i8:int8_t u8:uint8_t i16:int16_t u16:uint16_t i32:int32_t u32:uint32_t
  i64:int64_t u64:uint64_t f32:float f64:double)
