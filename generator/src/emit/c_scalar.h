// SPDX-License-Identifier: Apache-2.0
// Plain C spellings shared by every lowering module: C types, calls, and how one-lane integer
// values are carried (signed add/mul in the unsigned type of the same width, so wrap-around is
// defined and GCC 12's vectorizer cannot miscompile the reduction).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace simdgen::emit::c {

std::string ctype(DType t);  // "int32_t"
std::string call(const std::string& f, std::initializer_list<std::string> args);
std::string call(const std::string& f, const std::vector<std::string>& args);
bool isZeroLiteral(const std::string& lit);
// text with every character that cannot be in an identifier replaced by '_' ("2 * n" -> "2___n").
std::string identifierOf(const std::string& text);

bool carriedUnsigned(DType t, ReduceOp rop);
std::string carrier(DType t, ReduceOp rop);  // the C type a one-lane value is held in
// Expression x (of type t) cast to its carrier when t is carried unsigned, else x itself.
std::string carried(const std::string& x, DType t, ReduceOp rop);
// Converts one-lane value x of type `from` to `to`, through their C types (sign extension and
// truncation happen in the real types, the carriers only hold bits).
std::string convert(const std::string& x, DType from, DType to, ReduceOp rop);
// The same by a conversion mode (ir::OpKind::Convert), as short statements: sat clamps integers to
// to's range; a float to an integer is rounded by the mode (trunc when plain), saturates and gives
// 0 for NaN. The last statement is `target = <value>;` (target: "int32_t t5" or "out[l]"); the
// others declare temporaries named tmp + "_...".
std::vector<std::string> convertLines(const std::string& target, const std::string& tmp, const std::string& x, DType from, DType to,
                                      ReduceOp rop, ConvMode mode);
// One-lane arithmetic. Integer add/mul go through an unsigned type of at least 32 bits.
std::string binary(ReduceOp op, DType t, const std::string& a, const std::string& b);
// a - b and |x| of one-lane values held in carrier(t, rop): integers wrap (|MIN| = MIN).
std::string sub(DType t, const std::string& a, const std::string& b, ReduceOp rop);
std::string abs(DType t, const std::string& x, ReduceOp rop);
std::string popcount(DType t, const std::string& x, ReduceOp rop);  // set bits of x's own width
// x << count or x >> count (0 < count < bits): left wraps, right is arithmetic for signed types.
// sqrt(x) and x rounded to an integral float by `mode` (floor, ceil, trunc, nearest: rint), x a float.
std::string sqrt(DType t, const std::string& x);
std::string round(DType t, const std::string& x, ConvMode mode);
std::string shift(bool left, DType t, const std::string& x, int count, ReduceOp rop);
// a + b / a - b clamped to t's range (`add`: which), as short statements (the last `target =
// cast(<value>);`, the others declaring temporaries named tmp + "_..."), and (a + b + 1) >> 1
// without overflow; operands are expressions of t's own C type (not its carrier).
std::vector<std::string> addSubSatLines(bool add, const std::string& target, const std::string& cast, const std::string& tmp, DType t,
                                        const std::string& a, const std::string& b);
std::string avgRound(DType t, const std::string& a, const std::string& b);

}  // namespace simdgen::emit::c
