// SPDX-License-Identifier: Apache-2.0
// Lane maps of the named shuffles (ir/shuffle.h). Every map is built from the instruction's
// definition in units (unitBits / elemBits consecutive lanes move together), so one Shuffle
// describes every lane count and element width it is used with.
#include "ir/shuffle.h"

#include <algorithm>
#include <stdexcept>

namespace simdgen::ir {

namespace {

using Kind = Shuffle::Kind;

std::string_view kindName(Kind k) {
  switch (k) {
    case Kind::explicit_map: return "explicit";
    case Kind::unpack_lo: return "unpack_lo";
    case Kind::unpack_hi: return "unpack_hi";
    case Kind::shuffle_ps: return "shuffle_ps";
    case Kind::lanes128: return "lanes128";
    case Kind::concat_halves: return "concat_halves";
    case Kind::zip1: return "zip1";
    case Kind::zip2: return "zip2";
    case Kind::uzp1: return "uzp1";
    case Kind::uzp2: return "uzp2";
    case Kind::trn1: return "trn1";
    case Kind::trn2: return "trn2";
  }
  return "?";
}

std::string hexByte(int v) {
  static const char* digits = "0123456789ABCDEF";
  return std::string("0x") + digits[(v >> 4) & 15] + digits[v & 15];
}

[[noreturn]] void fail(const Shuffle& sh, const std::string& why) {
  throw std::logic_error("shuffle " + sh.str() + ": " + why);
}

// The vector seen as units of `unitLanes` lanes each: lane maps are built per unit, then
// expanded, so a unit's lanes always move together and in order.
struct Units {
  int lanes = 0;      // lanes of one vector
  int unitLanes = 1;  // lanes per unit
  int count() const { return lanes / unitLanes; }
};

Units unitsOf(const Shuffle& sh, int lanes, int elemBits, int unitBits) {
  if (lanes < 1 || elemBits < 1) fail(sh, "needs a positive lane count and element width");
  if (unitBits < elemBits)
    fail(sh, "moves " + std::to_string(unitBits) + "-bit units, narrower than the " + std::to_string(elemBits) +
                 "-bit elements");
  if (unitBits % elemBits != 0 || lanes % (unitBits / elemBits) != 0)
    fail(sh, std::to_string(lanes) + " lanes of " + std::to_string(elemBits) + " bits do not split into " +
                 std::to_string(unitBits) + "-bit units");
  return {lanes, unitBits / elemBits};
}

// Expands a map over units of concat(a, b) (unit u of b is count + u) to a map over lanes.
std::vector<int> expand(const std::vector<int>& unitMap, Units u) {
  std::vector<int> lanes;
  lanes.reserve(unitMap.size() * size_t(u.unitLanes));
  for (int src : unitMap)
    for (int t = 0; t < u.unitLanes; ++t) lanes.push_back(src * u.unitLanes + t);
  return lanes;
}

// Units per x86 segment: 128 bits, or the whole vector when it is narrower.
int segmentUnits(Units u, int elemBits) {
  const int segLanes = std::min(u.lanes, std::max(1, 128 / elemBits));
  return std::max(1, segLanes / u.unitLanes);
}

std::vector<int> unpackUnits(bool high, Units u, int segUnits) {
  const int n = u.count(), half = segUnits / 2;
  std::vector<int> m;
  for (int seg = 0; seg < n; seg += segUnits)
    for (int i = 0; i < half; ++i) {
      const int unit = seg + (high ? half : 0) + i;
      m.push_back(unit);      // a
      m.push_back(n + unit);  // b
    }
  return m;
}

std::vector<int> shufflePsUnits(int imm, Units u) {
  const int n = u.count();
  std::vector<int> m;
  for (int seg = 0; seg < n; seg += 4)
    for (int field = 0; field < 4; ++field) {
      const int src = field < 2 ? 0 : n;  // units 0, 1 from a; 2, 3 from b
      m.push_back(src + seg + ((imm >> (2 * field)) & 3));
    }
  return m;
}

// 128-bit blocks: 512 bits = shuffle_i32x4 (two blocks of a, two of b); 256 = permute2x128.
std::vector<int> lanes128Units(const Shuffle& sh, int blocks) {
  std::vector<int> m;
  if (blocks == 4) {
    for (int field = 0; field < 4; ++field) m.push_back((field < 2 ? 0 : 4) + ((sh.imm >> (2 * field)) & 3));
    return m;
  }
  if (blocks == 2) {
    if (sh.imm & 0x88) fail(sh, "zeroing a 128-bit block (imm bit 3 or 7) is not modelled");
    // {a0, a1, b0, b1}[sel] is concat(a, b) block sel.
    return {sh.imm & 3, (sh.imm >> 4) & 3};
  }
  fail(sh, "needs a 256- or 512-bit vector, not " + std::to_string(blocks * 128) + " bits");
}

std::vector<int> zipUnits(bool high, int n) {
  std::vector<int> m;
  for (int i = 0; i < n / 2; ++i) {
    const int unit = (high ? n / 2 : 0) + i;
    m.push_back(unit);
    m.push_back(n + unit);
  }
  return m;
}

std::vector<int> uzpUnits(bool odd, int n) {
  std::vector<int> m;
  for (int i = 0; i < n; ++i) m.push_back(2 * i + (odd ? 1 : 0));
  return m;
}

std::vector<int> trnUnits(bool odd, int n) {
  std::vector<int> m;
  for (int i = 0; i < n; i += 2) {
    m.push_back(i + (odd ? 1 : 0));      // a
    m.push_back(n + i + (odd ? 1 : 0));  // b
  }
  return m;
}

std::vector<int> checkedExplicit(const Shuffle& sh, int lanes) {
  if (int(sh.map.size()) != lanes)
    fail(sh, "has " + std::to_string(sh.map.size()) + " entries for " + std::to_string(lanes) + " lanes");
  for (int m : sh.map)
    if (m < 0 || m >= 2 * lanes)
      fail(sh, "entry " + std::to_string(m) + " is outside the " + std::to_string(2 * lanes) + " source lanes");
  return sh.map;
}

Shuffle make(Kind k, int unitBits, int imm = 0) {
  Shuffle s;
  s.kind = k;
  s.unitBits = unitBits;
  s.imm = imm;
  return s;
}

}  // namespace

std::vector<int> Shuffle::laneMap(int lanes, int elemBits) const {
  if (kind == Kind::explicit_map) return checkedExplicit(*this, lanes);
  const int unit = kind == Kind::shuffle_ps ? 32 : kind == Kind::lanes128 ? 128 : unitBits ? unitBits : elemBits;
  if (kind == Kind::concat_halves) {
    if (imm != 0 && imm != 1) fail(*this, "imm must be 0 (low halves) or 1 (high halves)");
    if (lanes % 2 != 0) fail(*this, "needs an even lane count");
    Units halves{lanes, lanes / 2};
    return expand({imm, 2 + imm}, halves);
  }
  const Units u = unitsOf(*this, lanes, elemBits, unit);
  const int n = u.count();
  switch (kind) {
    case Kind::unpack_lo:
    case Kind::unpack_hi: {
      const int seg = segmentUnits(u, elemBits);
      if (seg < 2) fail(*this, "needs at least two units per 128-bit segment");
      return expand(unpackUnits(kind == Kind::unpack_hi, u, seg), u);
    }
    case Kind::shuffle_ps:
      if (n % 4 != 0) fail(*this, "needs whole 128-bit segments of four 32-bit units");
      return expand(shufflePsUnits(imm, u), u);
    case Kind::lanes128: return expand(lanes128Units(*this, n), u);
    case Kind::zip1:
    case Kind::zip2:
    case Kind::uzp1:
    case Kind::uzp2:
    case Kind::trn1:
    case Kind::trn2:
      if (n % 2 != 0) fail(*this, "needs an even number of units");
      if (kind == Kind::zip1 || kind == Kind::zip2) return expand(zipUnits(kind == Kind::zip2, n), u);
      if (kind == Kind::uzp1 || kind == Kind::uzp2) return expand(uzpUnits(kind == Kind::uzp2, n), u);
      return expand(trnUnits(kind == Kind::trn2, n), u);
    default: break;
  }
  fail(*this, "has no lane map");
}

std::string Shuffle::str() const {
  std::string s(kindName(kind));
  switch (kind) {
    case Kind::explicit_map: {
      s += " [";
      for (size_t i = 0; i < map.size(); ++i) s += (i ? " " : "") + std::to_string(map[i]);
      return s + "]";
    }
    case Kind::shuffle_ps:
    case Kind::lanes128: return s + " " + hexByte(imm);
    case Kind::concat_halves: return s + (imm == 0 ? " low" : imm == 1 ? " high" : " " + std::to_string(imm));
    default: return unitBits ? s + "." + std::to_string(unitBits) : s;
  }
}

namespace shuffles {

Shuffle unpackLo(int unitBits) { return make(Kind::unpack_lo, unitBits); }
Shuffle unpackHi(int unitBits) { return make(Kind::unpack_hi, unitBits); }
Shuffle shufflePs(int imm) { return make(Kind::shuffle_ps, 32, imm); }
Shuffle lanes128(int imm) { return make(Kind::lanes128, 128, imm); }
Shuffle concatHalves(bool upper) { return make(Kind::concat_halves, 0, upper ? 1 : 0); }
Shuffle zip1(int unitBits) { return make(Kind::zip1, unitBits); }
Shuffle zip2(int unitBits) { return make(Kind::zip2, unitBits); }
Shuffle uzp1(int unitBits) { return make(Kind::uzp1, unitBits); }
Shuffle uzp2(int unitBits) { return make(Kind::uzp2, unitBits); }
Shuffle trn1(int unitBits) { return make(Kind::trn1, unitBits); }
Shuffle trn2(int unitBits) { return make(Kind::trn2, unitBits); }

Shuffle explicitMap(std::vector<int> map) {
  Shuffle s;
  s.kind = Kind::explicit_map;
  s.map = std::move(map);
  return s;
}

Stmt shuffleOp(std::string dst, VecType t, std::vector<std::string> srcs, Shuffle sh) {
  Stmt s = op(OpKind::Shuffle, std::move(dst), t, std::move(srcs));
  s.declare = true;
  s.shuffle = std::move(sh);
  return s;
}

}  // namespace shuffles

}  // namespace simdgen::ir
